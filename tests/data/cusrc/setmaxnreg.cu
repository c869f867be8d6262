// Warp-specialised kernels in the shape of CUTLASS 3's ping-pong GEMM and
// FlashAttention-3 (issue 49): warpgroup 0 produces and lowers its
// registers, the others consume and raise theirs (setmaxnreg, sm_90a).
// `greedy` raises without anything lowering: its .inc can never be granted.
template <int N> __device__ __forceinline__ void raise_regs()
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" : : "n"(N));
}
template <int N> __device__ __forceinline__ void lower_regs()
{
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" : : "n"(N));
}

__global__ void __launch_bounds__(384, 1) pingpong(float *out, const float *in, int n)
{
    int wg = threadIdx.x / 128;
    float acc = 0.0f;
    if (wg == 0) {
        lower_regs<40>();
        for (int i = threadIdx.x; i < n; i += 128)
            acc += in[i];
    } else {
        raise_regs<232>();
        for (int i = threadIdx.x; i < n; i += 256)
            acc = acc * 1.0001f + in[i];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void __launch_bounds__(384, 1) greedy(float *out, const float *in, int n)
{
    float acc = 0.0f;
    if (threadIdx.x >= 128)
        raise_regs<232>();
    for (int i = threadIdx.x; i < n; i += 384)
        acc = acc * 1.0001f + in[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int main()
{
    float *o, *i;
    cudaMalloc(&o, 384 * 132 * 4);
    cudaMalloc(&i, 1 << 20);
    pingpong<<<132, 384>>>(o, i, 1 << 18);
    greedy<<<132, 384>>>(o, i, 1 << 18);
    return 0;
}
