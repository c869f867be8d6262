// A tiled loop that walks its operands by moving the pointer parameters
// (`a += TILE` each step), as many hand-written GEMMs do: gpulint follows a
// pointer moved by a fixed step each pass (or once, before the loop).
#define TILE 32
#define N 2048

__global__ void row_sums(const float *a, float *out)
{
    __shared__ float t[TILE][TILE];
    a += blockIdx.x * TILE * N;
    float s = 0.0f;
    for (int k = 0; k < N; k += TILE) {
        t[threadIdx.y][threadIdx.x] = a[threadIdx.y * N + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < TILE; j++)
            s += t[threadIdx.y][j] * t[j][threadIdx.x];
        __syncthreads();
        a += TILE;
    }
    out[(blockIdx.x * TILE + threadIdx.y) * TILE + threadIdx.x] = s;
}

int main()
{
    float *a, *out;
    cudaMalloc(&a, (size_t)N * N * sizeof(float));
    cudaMalloc(&out, (size_t)N * TILE * sizeof(float));
    row_sums<<<N / TILE, dim3(TILE, TILE)>>>(a, out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
