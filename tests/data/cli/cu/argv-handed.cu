// main hands argv to a driver under another name (HeCBench's nlll reads
// its sizes in driver(char **argv)): the driver's reads of it are the
// program's arguments, which --run-args gives.
#include <cstdlib>
__global__ void k(float *x, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}
template <typename T> void driver(char **args) {
    const long n = atol(args[1]);
    float *x;
    cudaMalloc(&x, n * sizeof(float));
    k<<<(n + 255) / 256, 256>>>(x, n);
}
int main(int argc, char **argv) {
    driver<float>(argv);
    return 0;
}
