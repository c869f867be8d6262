// Does not compile: gpulint must show nvcc's diagnostics and exit 2.
__global__ void broken(float *x)
{
    x[threadIdx.x] = undefined_value;
}
