// A loop that stops at the smaller of two bounds ('i < WIDTH && i < end'):
// its trip count is the one of 'i < min(WIDTH, end)'.
#define WIDTH 4096

__global__ void partial_max(float *out, const float *in, int end)
{
    float m = in[threadIdx.x];
    for (int i = threadIdx.x + 256; i < WIDTH && i < end; i += 256)
        m = fmaxf(m, in[i]);
    out[threadIdx.x] = m;
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, sizeof(float) * WIDTH);
    cudaMalloc(&out, sizeof(float) * 256);
    partial_max<<<1, 256>>>(out, in, 1000); // 1000 < WIDTH: 3 passes for threads below 232, else 2
    partial_max<<<1, 256>>>(out, in, 100000); // WIDTH stops it: 15 passes each
    cudaDeviceSynchronize();
    return 0;
}
