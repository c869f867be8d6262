// A file name with spaces and a shell metacharacter: gpulint runs nvcc
// without a shell, so the name reaches nvcc as it is.
__global__ void tiled(float *out, const float *in)
{
    __shared__ float tile[16][17];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 16 + threadIdx.x];
    __syncthreads();
    out[threadIdx.x * 16 + threadIdx.y] = tile[threadIdx.x][threadIdx.y];
}
