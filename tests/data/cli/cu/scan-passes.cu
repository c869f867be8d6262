// A multi-pass scan sized the way OpenCL-era samples size it: the length
// rounded up to a power of two by helpers with if/else returns, the number
// of passes from a ratio of float logarithms, each pass's length from powf.
#include <cmath>
#include <cstdlib>

template <typename T> int is_power_of_two(T v)
{
    long long w = v;
    if ((w & -w) == w && w != 0) {
        return 1;
    } else {
        return 0;
    }
}

template <typename T> T round_to_power_of_two(T v)
{
    v--;
    for (int i = 0; i < (int)sizeof(T); i++)
        v |= v >> (1 << i);
    return v + 1;
}

__global__ void block_scan(float *out, const float *in, int block)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * block;
}

int main(int argc, char **argv)
{
    int length = atoi(argv[1]);
    int block = 256;
    if (!is_power_of_two(length)) {
        length = round_to_power_of_two(length);
    }
    float t = std::log((float)length) / std::log((float)block);
    unsigned int passes = (unsigned int)t;
    if (std::fabs(t - (float)passes) < 1e-7) {
        passes--;
    }
    int last = (int)(length / std::pow((float)block, (float)passes));
    float *in, *out;
    cudaMalloc(&in, length * sizeof(float));
    cudaMalloc(&out, length * sizeof(float));
    block_scan<<<length / block, block>>>(out, in, block);
    block_scan<<<passes, block>>>(out, in, block);
    block_scan<<<1, last>>>(out, in, block);
    cudaDeviceSynchronize();
    return 0;
}
