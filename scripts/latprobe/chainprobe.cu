// A loop whose passes wait on each other only through accumulators: per
// pass, four loads every lane makes at one address (L1 holds them after
// the first pass over each line), a square root and a reciprocal in
// IEEE precision, a polynomial. Timed inside the kernel (clock64) for one
// block of 1, 2, 4 and 8 warps, to set the chain term's walk of the same
// code against the clock, with three variants that take one part away.
// Prints "variant warps clocks_per_pass".
#include <cstdio>

/* M: 0 as described; 1 the same loads from one address (every pass an
 * L1 hit); 2 no loads (the pass's values from its counter); 3 the loads,
 * with approximate square root and reciprocal (no slow-path branches). */
template <int M>
__global__ void passes(const float *__restrict__ a, const float *__restrict__ b,
                       const float *__restrict__ c, const float *__restrict__ w, float *out, int n,
                       long long *cyc)
{
    float sx = 0.f, sy = 0.f, sz = 0.f;
    float ai = a[threadIdx.x], bi = b[threadIdx.x], ci = c[threadIdx.x];
    long long t0 = clock64();
    for (int j = 0; j < n; j++) {
        int k = M == 1 ? 0 : j;
        float aj = M == 2 ? j * 1e-7f : a[k], bj = M == 2 ? j * 2e-7f : b[k];
        float cj = M == 2 ? j * 3e-7f : c[k], wj = M == 2 ? j * 4e-7f : w[k];
        float dx = aj - ai, dy = bj - bi, dz = cj - ci;
        float r2 = dx * dx + dy * dy + dz * dz;
        float s = r2 + 0.01f;
        float inv = M == 3 ? __frcp_rn(s) * rsqrtf(s) : 1.0f / (s * sqrtf(s));
        float f = wj * (inv - (0.25f + r2 * (-0.07f + r2 * 0.01f)));
        sx += f * dx;
        sy += f * dy;
        sz += f * dz;
    }
    long long t1 = clock64();
    out[blockIdx.x * blockDim.x + threadIdx.x] = sx + sy + sz;
    if (threadIdx.x == 0)
        cyc[0] = t1 - t0;
}

template <int M>
static void run(const float *a, const float *b, const float *c, const float *w, float *out, int n,
                long long *cyc)
{
    for (int warps = 1; warps <= 8; warps *= 2) {
        long long best = -1, h;
        for (int rep = 0; rep < 3; rep++) {
            passes<M><<<1, 32 * warps>>>(a, b, c, w, out, n, cyc);
            cudaMemcpy(&h, cyc, sizeof h, cudaMemcpyDeviceToHost);
            if (best < 0 || h < best)
                best = h;
        }
        printf("%d %d %.1f\n", M, warps, (double)best / n);
    }
}

int main()
{
    const int n = 16384;
    float *a, *b, *c, *w, *out;
    long long *cyc;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    cudaMalloc(&c, n * sizeof(float));
    cudaMalloc(&w, n * sizeof(float));
    cudaMalloc(&out, 1024 * sizeof(float));
    cudaMalloc(&cyc, sizeof(long long));
    cudaMemset(a, 0, n * sizeof(float));
    cudaMemset(b, 0, n * sizeof(float));
    cudaMemset(c, 0, n * sizeof(float));
    cudaMemset(w, 0, n * sizeof(float));
    run<0>(a, b, c, w, out, n, cyc);
    run<1>(a, b, c, w, out, n, cyc);
    run<2>(a, b, c, w, out, n, cyc);
    run<3>(a, b, c, w, out, n, cyc);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
