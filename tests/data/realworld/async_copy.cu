// Double-buffered tiles copied with cuda::memcpy_async through a block-wide
// pipeline (cp.async on sm_80 and later), overlapping the next tile's copy
// with this tile's arithmetic.
#include <cooperative_groups.h>
#include <cuda/pipeline>

namespace cg = cooperative_groups;

template <int TILE>
__global__ void tiled_sum(const float *in, float *out, int tiles)
{
    __shared__ float buffer[2][TILE];
    auto block = cg::this_thread_block();
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
    auto pipe = cuda::make_pipeline(block, &state);
    const float *base = in + (size_t)blockIdx.x * tiles * TILE;
    float acc = 0.0f;
    for (int fetch = 0, use = 0; use < tiles; ++use) {
        for (; fetch < tiles && fetch < use + 2; ++fetch) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, buffer[fetch % 2], base + fetch * TILE,
                               sizeof(float) * TILE, pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        for (int i = threadIdx.x; i < TILE; i += blockDim.x)
            acc += buffer[use % 2][i];
        pipe.consumer_release();
    }
    atomicAdd(out + blockIdx.x, acc);
}

void run(const float *in, float *out, int blocks, int tiles)
{
    tiled_sum<1024><<<blocks, 256>>>(in, out, tiles);
}
