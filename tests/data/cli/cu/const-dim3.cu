// A launch configuration held in const dim3 variables (`const dim3 grids(...)`,
// as many benchmark programs write it) is evaluated like a plain dim3.
#include <cstdlib>
__global__ void k(float *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = 1; }
int main(int argc, char **argv) {
  const int n = atoi(argv[1]);
  const int tpb = 256;
  const dim3 grids ((n + tpb - 1) / tpb);
  const dim3 blocks (tpb);
  float *p; cudaMalloc(&p, n * 4);
  for (int i = 0; i < 3; i++) k<<<grids, blocks>>>(p, n);
  dim3 g2((n + tpb - 1) / tpb), b2(tpb);
  k<<<g2, b2>>>(p, n);
  return 0; }
