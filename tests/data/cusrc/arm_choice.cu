// A local whose value an if's arms choose, read by the index of a global
// access. gpulint keeps the condition's choice (a ? b : c) and decides it
// where the condition has values: the launch's arguments, or each lane.
// Counts held to Nsight Compute in tests/data/ncu/h200/cusrc-arm_choice.csv.

// CUDA samples' diagonal transpose: a square matrix takes the first arm, a
// wide one the second; each order of blocks is a permutation of the grid.
__global__ void diagonal(float *__restrict__ out, const float *__restrict__ in, int width,
                         int height)
{
    __shared__ float tile[32][33];
    int bx, by;
    if (width == height) {
        by = blockIdx.x;
        bx = (blockIdx.x + blockIdx.y) % gridDim.x;
    } else {
        int bid = blockIdx.x + gridDim.x * blockIdx.y;
        by = bid % gridDim.y;
        bx = ((bid / gridDim.y) + by) % gridDim.x;
    }
    int x = bx * 32 + threadIdx.x, y = by * 32 + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];
    __syncthreads();
    x = by * 32 + threadIdx.x;
    y = bx * 32 + threadIdx.y;
    out[y * height + x] = tile[threadIdx.x][threadIdx.y];
}

// An else-if chain picks the stride from a mode the launch passes.
__global__ void chain(float *out, int mode)
{
    int stride;
    if (mode == 0)
        stride = 1;
    else if (mode == 1)
        stride = 8;
    else
        stride = 32;
    out[(blockIdx.x * blockDim.x + threadIdx.x) * stride] = 1.0f;
}

// The lane chooses: odd lanes store 64 elements further on.
__global__ void by_lane(float *out)
{
    int off;
    if (threadIdx.x & 1)
        off = 64;
    else
        off = 0;
    out[blockIdx.x * 256 + threadIdx.x + off] = 2.0f;
}

// A choice made afresh in every trip of a loop.
__global__ void in_loop(const float *__restrict__ in, float *__restrict__ out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < 8; k++) {
        int step;
        if (k < 4)
            step = 1;
        else
            step = 32;
        s += in[i * step + k];
    }
    out[i] = s;
}

int main()
{
    float *a, *b;
    cudaMalloc(&a, 64u << 20);
    cudaMalloc(&b, 64u << 20);
    diagonal<<<dim3(64, 64), dim3(32, 32)>>>(b, a, 2048, 2048);
    diagonal<<<dim3(64, 32), dim3(32, 32)>>>(b, a, 2048, 1024);
    chain<<<64, 256>>>(b, 1);
    by_lane<<<64, 256>>>(b);
    in_loop<<<64, 256>>>(a, b);
    cudaDeviceSynchronize();
    return 0;
}
