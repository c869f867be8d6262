// tests/data/cli/cu/wmma-shared-rows.cu's two tiles (wmma fragments loaded
// from shared rows of 16 and of 24 halves) launched once each, for Nsight
// Compute's shared load wavefronts: what the front end's ldmatrix model
// predicts (2 wavefronts an 8 x 8 matrix for 32-byte rows, 1 for 48).
#include <cstdio>

#include "../../tests/data/cli/cu/wmma-shared-rows.cu"

int main()
{
    __half *a;
    float *c;
    cudaMalloc(&a, 256 * sizeof(__half));
    cudaMalloc(&c, 132 * 256 * sizeof(float));
    cudaMemset(a, 0, 256 * sizeof(__half));
    launch(a, c);
    cudaError_t e = cudaDeviceSynchronize();
    printf("ldsmprobe: %s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
