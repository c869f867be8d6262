// The XU pipe (conversions and the multi-function unit, MUFU) on the GPU at
// hand: (1) which conversions run on it, as chains of K = 16 and K = 48
// round trips (float to integer and back, float to double and back, ...)
// whose smsp__inst_executed_pipe_xu differ by 32 times one trip's XU
// instructions; (2) its rate, as full grids of eight independent chains a
// thread of MUFU.EX2, of conversion round trips and of FFMA (the FMA
// pipe's known 128 lanes a clock, for scale), whose XU and FMA warp
// instructions over the SMs' elapsed clocks give warp instructions a clock
// per SM. Run under Nsight Compute (scripts/xuprobe/run.sh).
#include <cstdio>

#define PAIR_KERNEL(name, T, c1, r1, c2, r2, mid)                                               \
    template <int K> __global__ void name(const T *in, T *out)                                  \
    {                                                                                            \
        T x = in[0];                                                                             \
        mid m;                                                                                   \
        _Pragma("unroll") for (int i = 0; i < K; i++)                                            \
        {                                                                                        \
            asm volatile(c1 " %0, %1;" : "=" r1(m) : r2(x));                                     \
            asm volatile(c2 " %0, %1;" : "=" r2(x) : r1(m));                                     \
        }                                                                                        \
        out[threadIdx.x] = x;                                                                    \
    }

PAIR_KERNEL(f32_s32, float, "cvt.rzi.s32.f32", "r", "cvt.rn.f32.s32", "f", int)
PAIR_KERNEL(f32_u32, float, "cvt.rzi.u32.f32", "r", "cvt.rn.f32.u32", "f", unsigned)
PAIR_KERNEL(f32_s64, float, "cvt.rzi.s64.f32", "l", "cvt.rn.f32.s64", "f", long long)
PAIR_KERNEL(f32_f64, float, "cvt.f64.f32", "d", "cvt.rn.f32.f64", "f", double)
PAIR_KERNEL(f64_s32, double, "cvt.rzi.s32.f64", "r", "cvt.rn.f64.s32", "d", int)

// Eight independent chains a thread, so that the pipe, not a chain's
// latency, sets the pace.
#define EIGHT(stmt)                                                                             \
    stmt(a0) stmt(a1) stmt(a2) stmt(a3) stmt(a4) stmt(a5) stmt(a6) stmt(a7)
#define EX2(v) asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(v));
#define FMA(v) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(v) : "f"(s), "f"(t));
#define CVT(v)                                                                                  \
    {                                                                                            \
        int r;                                                                                   \
        asm volatile("cvt.rzi.s32.f32 %0, %1;" : "=r"(r) : "f"(v));                              \
        asm volatile("cvt.rn.f32.s32 %0, %1;" : "=f"(v) : "r"(r));                               \
    }

#define RATE_KERNEL(name, STEP)                                                                 \
    __global__ void name(float *out, int iters, float s, float t)                               \
    {                                                                                            \
        float a0 = threadIdx.x * 1e-3f, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3, a4 = a0 + 4,      \
              a5 = a0 + 5, a6 = a0 + 6, a7 = a0 + 7;                                             \
        for (int i = 0; i < iters; i++) {                                                        \
            EIGHT(STEP)                                                                          \
        }                                                                                        \
        out[blockIdx.x * blockDim.x + threadIdx.x] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;      \
    }

RATE_KERNEL(rate_ex2, EX2)
RATE_KERNEL(rate_cvt, CVT)
RATE_KERNEL(rate_fma, FMA)

template <typename T> static void pair(void (*k16)(const T *, T *), void (*k48)(const T *, T *))
{
    T h[2] = {(T)1.5, (T)1.5}, *d, *o;
    cudaMalloc(&d, sizeof h);
    cudaMalloc(&o, 32 * sizeof(T));
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    k16<<<1, 32>>>(d, o);
    k48<<<1, 32>>>(d, o);
    cudaDeviceSynchronize();
    cudaFree(d);
    cudaFree(o);
}

int main()
{
    pair<float>(f32_s32<16>, f32_s32<48>);
    pair<float>(f32_u32<16>, f32_u32<48>);
    pair<float>(f32_s64<16>, f32_s64<48>);
    pair<float>(f32_f64<16>, f32_f64<48>);
    pair<double>(f64_s32<16>, f64_s32<48>);
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    int blocks = sms * 16, threads = 128; // 2048 threads an SM: full occupancy
    float *o;
    cudaMalloc(&o, sizeof(float) * blocks * threads);
    rate_ex2<<<blocks, threads>>>(o, 2048, 1.0f, 0.0f);
    rate_cvt<<<blocks, threads>>>(o, 2048, 1.0f, 0.0f);
    rate_fma<<<blocks, threads>>>(o, 2048, 1.0f, 0.0f);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%d SMs: %s\n", sms, cudaGetErrorString(e));
    return e != cudaSuccess;
}
