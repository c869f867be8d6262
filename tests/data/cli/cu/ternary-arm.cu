// A conditional expression whose arm does work: 128 of the 512 threads
// (threadIdx.x < 64 in each 256-thread block) load a[i] twice and do one
// FMA (2 FLOPs): 256 FLOPs; every thread stores c[i] (2,048 B) and the 128
// load 8 B each (1,024 B).
__global__ void tern(const float *a, float *c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = (threadIdx.x < 64) ? a[i] * a[i] + 1.0f : 0.0f;
}

int main()
{
    tern<<<2, 256>>>(nullptr, nullptr);
    return 0;
}
