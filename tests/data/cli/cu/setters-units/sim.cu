// The class of sim.h: the launch reads what main.cu set (n = 16000 with
// --run-args 16000; the constructor's 1000 without).
#include "sim.h"
__global__ void scale(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2.0f; }
Sim::Sim() { set_npart(1000); set_nsteps(3); }
void Sim::SetNumberOfParticles(int N) { set_npart(N); }
void Sim::Start() {
    int n = get_npart();
    float *x;
    cudaMalloc(&x, n * sizeof(float));
    for (int s = 0; s < get_nsteps(); s++)
        scale<<<(n + 255) / 256, 256>>>(x, n);
}
