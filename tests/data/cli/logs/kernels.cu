// Source that goes with two-kernels-sm80.log: gpulint --ptxas-log LOG FILE.cu
// takes the kernels' lines from here. Not compiled by the tests.
#define TILE 32

__global__ void transpose(float *out, const float *in)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * 1024 + x];
    __syncthreads();
    out[x * 1024 + y] = tile[threadIdx.x][threadIdx.y];
}

__global__ void reduce(const float *in, float *out, int n)
{
    __shared__ float buf[1024];
    buf[threadIdx.x] = threadIdx.x < n ? in[threadIdx.x] : 0.0f;
    __syncthreads();
    if (threadIdx.x == 0)
        *out = buf[0];
}
