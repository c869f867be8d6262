// Fields a struct's declaration initializes (C++11 default member
// initializers, as a lattice-Boltzmann domain's origin `x0 = 0`): a local
// declared without an initializer, whose type has only the compiler's
// constructor, holds them where nothing assigns the field.
#include <cuda_runtime.h>

struct Box {
    int x0 = 0, nx = 0, halo = 2;
};

struct Sized {
    int n = 64;
    Sized() : n(128) {} // a constructor of its own: its value, not the initializer's
};

__global__ void edges(float *a, Box b)
{
    int x = threadIdx.x + blockIdx.x * blockDim.x;
    if (x + b.x0 == 0)
        a[x] = 1.0f;
    if (x < b.nx)
        a[x + b.halo] += 2.0f;
}

__global__ void fill(float *a, int n)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n)
        a[i] = 0.0f;
}

void setup(Box &b, float *a) { edges<<<b.nx / 256, 256>>>(a, b); }

int main()
{
    Box box;
    box.nx = 1 << 20;
    Box moved;
    moved.nx = 1 << 20;
    moved.x0 = 7; // assigned: the assignment holds
    float *a;
    cudaMalloc(&a, 1 << 24);
    setup(box, a);
    setup(moved, a);
    Sized s;
    fill<<<(s.n + 255) / 256, 256>>>(a, s.n);
    cudaFree(a);
    return 0;
}
