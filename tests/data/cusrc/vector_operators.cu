// Compound assignments through vector operators of the project's own (the
// way cuda-samples' helper_math.h writes them) on global elements, as nvcc
// 13 compiles them (PTX in the golden's comment). `acc`'s `out[o] -= a *
// in[k]` on float4 keeps out[o] in a register across the k loop, as
// `acc1` does on float: one ld.global.v4.f32 and one st.global.v4.f32 an
// i, the loads of `in` and `h` in the loop; `add_once`'s `out[i] += v` is
// one 16-byte load and store, not four of each. `counted`'s operator also
// counts into a variable of file scope with an atomic, which no element of
// a __restrict__ pointer can be: nvcc still keeps out[t] in a register
// (one ld.global.v4.f32 before the loop, one st after it; the atomic in
// the loop).
struct vec4 {
    float x, y, z, w;
} __attribute__((aligned(16)));

__device__ int calls;

__device__ inline vec4 operator*(float s, vec4 b)
{
    vec4 r;
    r.x = s * b.x;
    r.y = s * b.y;
    r.z = s * b.z;
    r.w = s * b.w;
    return r;
}

__device__ inline void operator-=(vec4 &a, vec4 b)
{
    a.x -= b.x;
    a.y -= b.y;
    a.z -= b.z;
    a.w -= b.w;
}

__device__ inline void operator+=(vec4 &a, vec4 b)
{
    a.x += b.x;
    a.y += b.y;
    a.z += b.z;
    a.w += b.w;
}

__device__ inline void operator*=(vec4 &a, vec4 b)
{
    a.x *= b.x;
    a.y *= b.y;
    a.z *= b.z;
    a.w *= b.w;
    atomicAdd(&calls, 1);
}

__global__ void acc(const vec4 *__restrict__ in, vec4 *__restrict__ out,
                    const float *__restrict__ h, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = 0; i < 8; i++) {
        int o = t * 8 + i;
        for (int k = 0; k < n; k++)
            out[o] -= h[i * n + k] * in[t * n + k];
    }
}

__global__ void acc1(const float *__restrict__ in, float *__restrict__ out,
                     const float *__restrict__ h, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = 0; i < 8; i++) {
        int o = t * 8 + i;
        for (int k = 0; k < n; k++)
            out[o] -= h[i * n + k] * in[t * n + k];
    }
}

__global__ void add_once(const vec4 *__restrict__ in, vec4 *__restrict__ out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    vec4 v = in[i];
    out[i] += v;
}

__global__ void counted(const vec4 *__restrict__ in, vec4 *__restrict__ out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < n; k++)
        out[t] *= in[t * n + k];
}

int main()
{
    vec4 *in, *out;
    float *fin, *fout, *h;
    int n = 64;
    cudaMalloc(&in, 16 * 65536 * 64);
    cudaMalloc(&out, 16 * 65536 * 8);
    cudaMalloc(&fin, 4 * 65536 * 64);
    cudaMalloc(&fout, 4 * 65536 * 8);
    cudaMalloc(&h, 4 * 8 * 64);
    acc<<<256, 256>>>(in, out, h, n);
    acc1<<<256, 256>>>(fin, fout, h, n);
    add_once<<<256, 256>>>(in, out);
    counted<<<256, 256>>>(in, out, n);
    return 0;
}
