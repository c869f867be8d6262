// What one iteration of polybench correlation's inner loop waits for:
// symmat[j1*M + j2] += data[i*M + j1] * data[i*M + j2] over i < N, for
// one j2 a thread, as the original (an uncoalesced store every
// iteration), with the sum kept in a register and stored once, and with
// the store made coalesced (symmat[j2*M + j1]). 8 blocks of 256 threads
// (M = N = 2048), clock64 around the loop, thread 0's count reported.
#include <cstdio>
#define M 2048
#define N 2048
__global__ void orig(float *symmat, const float *data, unsigned long long *clk)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x, j2 = (j1 + 1) % M;
    long long t0 = clock64();
    symmat[j1 * M + j2] = 0;
    for (int i = 0; i < N; i++)
        symmat[j1 * M + j2] += data[i * M + j1] * data[i * M + j2];
    long long t1 = clock64();
    if (j1 == 0) clk[0] = t1 - t0;
}
__global__ void reg(float *symmat, const float *data, unsigned long long *clk)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x, j2 = (j1 + 1) % M;
    long long t0 = clock64();
    float s = 0;
    for (int i = 0; i < N; i++)
        s += data[i * M + j1] * data[i * M + j2];
    symmat[j1 * M + j2] = s;
    long long t1 = clock64();
    if (j1 == 0) clk[0] = t1 - t0;
}
__global__ void coal(float *symmat, const float *data, unsigned long long *clk)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x, j2 = (j1 + 1) % M;
    long long t0 = clock64();
    symmat[j2 * M + j1] = 0;
    for (int i = 0; i < N; i++)
        symmat[j2 * M + j1] += data[i * M + j1] * data[i * M + j2];
    long long t1 = clock64();
    if (j1 == 0) clk[0] = t1 - t0;
}
int main()
{
    float *s, *d; unsigned long long *c, h;
    cudaMalloc(&s, sizeof(float) * M * M); cudaMalloc(&d, sizeof(float) * M * N);
    cudaMalloc(&c, 8); cudaMemset(d, 0, sizeof(float) * M * N);
    const char *names[3] = {"orig", "reg", "coal"};
    void (*k[3])(float *, const float *, unsigned long long *) = {orig, reg, coal};
    for (int r = 0; r < 2; r++)
        for (int i = 0; i < 3; i++) {
            k[i]<<<8, 256>>>(s, d, c);
            cudaMemcpy(&h, c, 8, cudaMemcpyDeviceToHost);
            printf("%s pass %d: %.1f clocks per iteration\n", names[i], r, (double)h / N);
        }
    return 0;
}
