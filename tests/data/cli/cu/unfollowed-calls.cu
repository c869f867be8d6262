// Host calls the following of sizes stops at: a function pointer, a virtual
// method (followed into the one declared), recursion (followed once).
#include <cuda_runtime.h>
__global__ void k(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2.f; }
struct Step { virtual void run(float *x, int n) { k<<<(n + 255) / 256, 256>>>(x, n); } virtual ~Step() {} };
void launch(float *x, int n) { k<<<(n + 255) / 256, 256>>>(x, n); }
void halve(float *x, int n) { if (n > 1024) halve(x, n / 2); launch(x, n); }
int main() {
  float *x; cudaMalloc(&x, 1 << 24);
  void (*fp)(float *, int) = launch;
  fp(x, 4096);
  Step *s = new Step; s->run(x, 8192);
  halve(x, 1 << 20);
  return 0;
}
