// kernel.cu: parses only with the include path and the define that its
// compile_commands.json entry gives (-I include -DTILE_FROM_BUILD=64).
#include "tile_config.h"

__global__ void copyTile(const float *in, float *out)
{
    __shared__ float tile[kTile];
    tile[threadIdx.x] = in[blockIdx.x * kTile + threadIdx.x];
    __syncthreads();
    out[blockIdx.x * kTile + threadIdx.x] = tile[kTile - 1 - threadIdx.x];
}

int main()
{
    copyTile<<<16, kTile>>>(nullptr, nullptr);
    return 0;
}
