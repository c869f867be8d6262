// Two elements of one __restrict__ pointer that a loop accumulates into,
// a constant apart: LLVM keeps both in registers across the loop only
// where its alias analysis sees the constant, which it does when the
// constant is added last or scaled with the rest (`last`, `scaled`), and
// not when it is added before the thread's term (`inner`: j * 64 + 32 and
// j * 64 become two induction variables). nvcc 13's PTX (-O3, sm_90):
// last and scaled load both elements before the k loop and store them
// after it (two ld.global, two st.global outside it); inner loads and
// stores both in each iteration (the k loop unrolled by 4: 16 ld.global,
// 8 st.global in its body). twice, inner's shape, updates its first
// element twice an iteration with a load of `in` between: the first store
// is dead all the same (`in`, another __restrict__ pointer, cannot reach
// it), so an iteration loads each element once and stores it once (the
// PTX's body, unrolled by 4: 8 st.global).
__global__ void inner(const float *__restrict__ in, float *__restrict__ out, int n)
{
    int t = threadIdx.x;
    for (int j = 0; j < 7; ++j)
        for (int k = 0; k < n; ++k) {
            out[j * 64 + t] += in[k * 32 + t];
            out[j * 64 + 32 + t] -= in[k];
        }
}

__global__ void last(const float *__restrict__ in, float *__restrict__ out, int n)
{
    int t = threadIdx.x;
    for (int j = 0; j < 7; ++j)
        for (int k = 0; k < n; ++k) {
            out[t + j * 64] += in[k * 32 + t];
            out[t + j * 64 + 32] -= in[k];
        }
}

__global__ void scaled(const float *__restrict__ in, float *__restrict__ out, int n)
{
    int t = threadIdx.x;
    for (int j = 0; j < 7; ++j)
        for (int k = 0; k < n; ++k) {
            out[2 * (j * 64 + t)] += in[k * 32 + t];
            out[2 * (j * 64 + t + 16)] -= in[k];
        }
}

__global__ void twice(const float *__restrict__ in, float *__restrict__ out, int n)
{
    int t = threadIdx.x;
    for (int j = 0; j < 7; ++j)
        for (int k = 0; k < n; ++k) {
            out[j * 64 + t] += in[k * 32 + t];
            out[j * 64 + t] *= in[k];
            out[j * 64 + 32 + t] -= in[k];
        }
}

int main()
{
    float *in, *out;
    const int n = 256;
    cudaMalloc(&in, 4 * 32 * n);
    cudaMalloc(&out, 4 * 2 * 7 * 64);
    inner<<<1, 32>>>(in, out, n);
    last<<<1, 32>>>(in, out, n);
    scaled<<<1, 32>>>(in, out, n);
    twice<<<1, 32>>>(in, out, n);
    return 0;
}
