// Dynamic parallelism: a parent kernel sizes and launches child grids from
// the device. Needs relocatable device code: compile with -rdc=true.
#include <cuda_runtime.h>

__global__ void child_fill(float *segment, int length, float value)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < length)
        segment[i] = value;
}

__global__ void parent_segments(float *data, const int *offsets, int segments)
{
    int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= segments)
        return;
    int begin = offsets[s], length = offsets[s + 1] - begin;
    if (length > 0)
        child_fill<<<(length + 127) / 128, 128>>>(data + begin, length, (float)s);
}

void fill_segments(float *data, const int *offsets, int segments)
{
    parent_segments<<<(segments + 63) / 64, 64>>>(data, offsets, segments);
}
