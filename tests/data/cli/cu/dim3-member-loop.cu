// One pair of dim3 configurations reused for every launch inside a loop,
// its members set again before each launch: each launch sees the
// assignments that reach it in the same pass, whatever the later
// launches of the pass assign.
__global__ void rotate(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] *= 2.0f;
}

__global__ void map(float *a, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h)
        a[y * w + x] += 1.0f;
}

int main()
{
    const int w = 2048, h = 1024, views = 4;
    float *a;
    cudaMalloc(&a, sizeof(float) * w * h);
    dim3 threads(1, 1, 1);
    dim3 blocks(1, 1, 1);
    for (int v = 0; v < views; v++) {
        threads.x = 256;
        threads.y = 1;
        blocks.x = w / 256;
        blocks.y = 1;
        rotate<<<blocks, threads>>>(a, w);
        threads.x = 16;
        threads.y = 16;
        for (int s = 0; s < 2; s++) {
            blocks.x = w / threads.x;
            blocks.y = h / threads.y;
            map<<<blocks, threads>>>(a, w, h);
        }
    }
    cudaDeviceSynchronize();
    return 0;
}
