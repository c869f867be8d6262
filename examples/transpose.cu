// transpose.cu: matrix transpose through a shared-memory tile, the classic
// bank-conflict example (after NVIDIA's "An Efficient Matrix Transpose in
// CUDA C/C++").
//
// Every kernel moves one TILE x TILE tile per block with a TILE x BLOCK_ROWS
// block: each thread copies TILE / BLOCK_ROWS elements. The tile is written
// row by row (conflict-free) and read column by column:
//   - transposeTileNaive keeps the tile as float[32][32]: a column of it lies
//     in one bank, so the 32 lanes of a warp read 32 words of the same bank
//     (32-way conflict, 32 wavefronts per request);
//   - transposeTilePadded pads each row to 33 floats, which shifts each row
//     by one bank: the column read is conflict-free;
//   - transposeTiled<TILE_DIM, PAD> is the same kernel with the tile size and
//     the padding as template parameters, launched with and without padding.
//
// Build: nvcc -arch=sm_90 -o transpose transpose.cu
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE 32
#define BLOCK_ROWS 8

// The baseline: no shared memory, the store walks a column of `out`
// (uncoalesced: each lane writes a different row).
__global__ void transposeNaive(float *out, const float *in, int width, int height)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        if (x < width && y + j < height)
            out[x * height + (y + j)] = in[(y + j) * width + x];
}

__global__ void transposeTileNaive(float *out, const float *in, int width, int height)
{
    __shared__ float tile[TILE][TILE];

    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];

    __syncthreads();

    // Swap the block indices: this block writes the transposed tile.
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        if (x < height && y + j < width)
            out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j]; // column read
}

__global__ void transposeTilePadded(float *out, const float *in, int width, int height)
{
    __shared__ float tile[TILE][TILE + 1]; // +1: consecutive rows start one bank apart

    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];

    __syncthreads();

    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        if (x < height && y + j < width)
            out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

// The tile size and the padding as template parameters: the analysis
// follows each instantiation that main() launches.
template <int TILE_DIM, int PAD>
__global__ void transposeTiled(float *out, const float *in, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + PAD];
    constexpr int ROWS = TILE_DIM / 4; // the block is TILE_DIM x TILE_DIM/4 threads

    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += ROWS)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];

    __syncthreads();

    int tx = blockIdx.y * TILE_DIM + threadIdx.x;
    int ty = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += ROWS)
        if (tx < height && ty + j < width)
            out[(ty + j) * height + tx] = tile[threadIdx.x][threadIdx.y + j];
}

int main()
{
    const int width = 1024, height = 1024;
    const size_t bytes = size_t(width) * height * sizeof(float);
    float *in, *out;
    cudaMalloc(&in, bytes);
    cudaMalloc(&out, bytes);

    dim3 grid(width / TILE, height / TILE);
    dim3 block(TILE, BLOCK_ROWS);
    transposeNaive<<<grid, block>>>(out, in, width, height);
    transposeTileNaive<<<grid, block>>>(out, in, width, height);
    transposeTilePadded<<<grid, block>>>(out, in, width, height);

    transposeTiled<32, 0><<<grid, dim3(32, 8)>>>(out, in, width, height);
    transposeTiled<32, 1><<<grid, dim3(32, 8)>>>(out, in, width, height);
    transposeTiled<16, 1><<<dim3(width / 16, height / 16), dim3(16, 4)>>>(out, in, width, height);

    cudaError_t err = cudaDeviceSynchronize();
    printf("transpose: %s\n", cudaGetErrorString(err));
    cudaFree(in);
    cudaFree(out);
    return err == cudaSuccess ? 0 : 1;
}
