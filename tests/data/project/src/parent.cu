// A device-side launch: builds only as relocatable device code (-dc).
__global__ void child(float *x) { x[threadIdx.x] += 1.0f; }

__global__ void parent(float *x)
{
    if (threadIdx.x == 0)
        child<<<1, 32>>>(x);
}
