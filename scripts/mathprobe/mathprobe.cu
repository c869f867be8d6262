// How many floating-point instructions each math call and division costs
// once nvcc has compiled it: one kernel per operation, each thread applies
// it once to its element. scripts/mathprobe/run.py profiles every kernel
// under Nsight Compute (FADD/FMUL/FFMA and DADD/DMUL/DFMA thread
// instructions) over two input ranges and subtracts the copy kernel's work.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#define U32(name, e)                                                                   \
    __global__ void f_##name(const float *x, const float *z, float *y, int n)         \
    {                                                                                  \
        int i = blockIdx.x * blockDim.x + threadIdx.x;                                 \
        if (i < n) {                                                                   \
            float a = x[i], b = z[i];                                                  \
            (void)b;                                                                   \
            y[i] = (e);                                                                \
        }                                                                              \
    }
#define U64(name, e)                                                                   \
    __global__ void d_##name(const double *x, const double *z, double *y, int n)      \
    {                                                                                  \
        int i = blockIdx.x * blockDim.x + threadIdx.x;                                 \
        if (i < n) {                                                                   \
            double a = x[i], b = z[i];                                                 \
            (void)b;                                                                   \
            y[i] = (e);                                                                \
        }                                                                              \
    }
#define OPS32(X)                                                                       \
    X(copy, a) X(add, a + b) X(mul, a * b) X(div, a / b) X(rcp, 1.0f / a)             \
    X(div_const, a / 3.0f) X(div_pow2, a / 4.0f) X(fdividef, __fdividef(a, b))         \
    X(fdiv_rn, __fdiv_rn(a, b)) X(frcp_rn, __frcp_rn(a)) X(sqrtf, sqrtf(a))            \
    X(rsqrtf, rsqrtf(a)) X(fsqrt_rn, __fsqrt_rn(a)) X(frsqrt_rn, __frsqrt_rn(a))       \
    X(expf, expf(a)) X(exp2f, exp2f(a)) X(exp10f, exp10f(a)) X(expm1f, expm1f(a))      \
    X(logf, logf(a)) X(log2f, log2f(a)) X(log10f, log10f(a)) X(log1pf, log1pf(a))      \
    X(sinf, sinf(a)) X(cosf, cosf(a)) X(tanf, tanf(a)) X(asinf, asinf(a))              \
    X(acosf, acosf(a)) X(atanf, atanf(a)) X(atan2f, atan2f(a, b)) X(sinhf, sinhf(a))   \
    X(coshf, coshf(a)) X(tanhf, tanhf(a)) X(powf, powf(a, b)) X(cbrtf, cbrtf(a))       \
    X(erff, erff(a)) X(erfcf, erfcf(a)) X(hypotf, hypotf(a, b)) X(fabsf, fabsf(a))     \
    X(fminf, fminf(a, b)) X(fmaxf, fmaxf(a, b)) X(floorf, floorf(a))                   \
    X(__expf, __expf(a)) X(__exp10f, __exp10f(a)) X(__logf, __logf(a))                 \
    X(__log2f, __log2f(a)) X(__log10f, __log10f(a)) X(__sinf, __sinf(a))               \
    X(__cosf, __cosf(a)) X(__tanf, __tanf(a)) X(__powf, __powf(a, b))                  \
    X(sigmoid, 1.0f / (1.0f + expf(-a)))
#define OPS64(X)                                                                       \
    X(copy, a) X(add, a + b) X(div, a / b) X(rcp, 1.0 / a) X(div_const, a / 3.0)       \
    X(sqrt, sqrt(a)) X(rsqrt, rsqrt(a)) X(exp, exp(a)) X(log, log(a)) X(sin, sin(a))   \
    X(cos, cos(a)) X(tanh, tanh(a)) X(pow, pow(a, b)) X(erf, erf(a))

OPS32(U32)
OPS64(U64)

typedef void (*k32)(const float *, const float *, float *, int);
typedef void (*k64)(const double *, const double *, double *, int);
#define E32(name, e) {#name, f_##name},
#define E64(name, e) {#name, d_##name},
static const struct { const char *name; k32 k; } t32[] = {OPS32(E32)};
static const struct { const char *name; k64 k; } t64[] = {OPS64(E64)};

int main()
{
    const int n = 1 << 20;
    // Two ranges: small arguments in [0.125, 0.875), moderate ones in [1.5, 24).
    const double lo[2] = {0.125, 1.5}, hi[2] = {0.875, 24.0};
    std::vector<double> hx(n), hz(n);
    std::vector<float> fx(n), fz(n);
    float *x, *z, *y;
    double *dx, *dz, *dy;
    cudaMalloc(&x, n * 4); cudaMalloc(&z, n * 4); cudaMalloc(&y, n * 4);
    cudaMalloc(&dx, n * 8); cudaMalloc(&dz, n * 8); cudaMalloc(&dy, n * 8);
    for (int r = 0; r < 2; r++) {
        srand(12345 + r);
        for (int i = 0; i < n; i++) {
            hx[i] = lo[r] + (hi[r] - lo[r]) * (rand() / (RAND_MAX + 1.0));
            hz[i] = lo[r] + (hi[r] - lo[r]) * (rand() / (RAND_MAX + 1.0));
            fx[i] = (float)hx[i]; fz[i] = (float)hz[i];
        }
        cudaMemcpy(x, fx.data(), n * 4, cudaMemcpyHostToDevice);
        cudaMemcpy(z, fz.data(), n * 4, cudaMemcpyHostToDevice);
        cudaMemcpy(dx, hx.data(), n * 8, cudaMemcpyHostToDevice);
        cudaMemcpy(dz, hz.data(), n * 8, cudaMemcpyHostToDevice);
        for (auto &e : t32) {
            printf("range %d f32 %s\n", r, e.name);
            e.k<<<n / 256, 256>>>(x, z, y, n);
        }
        for (auto &e : t64) {
            printf("range %d f64 %s\n", r, e.name);
            e.k<<<n / 256, 256>>>(dx, dz, dy, n);
        }
        cudaDeviceSynchronize();
    }
    cudaError_t err = cudaGetLastError();
    printf("status %s\n", cudaGetErrorString(err));
    return err != cudaSuccess;
}
