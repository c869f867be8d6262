// Declared shared memory against ptxas's allocation: tile is 32 x 33
// floats = 4,224 B and spare 256 floats = 1,024 B, 5,248 B declared; spare
// is never read, so ptxas allocates only tile's 4,224 B.
__global__ void padded_transpose(float *out)
{
    __shared__ float tile[32][33];
    __shared__ float spare[256];
    tile[threadIdx.y][threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
