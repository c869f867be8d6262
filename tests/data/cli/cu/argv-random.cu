// A size computed from an argument and from a count of random data (as a
// benchmark counts the ones among random labels): with the arguments
// given, the command line is not what keeps it unknown.
#include <cmath>
#include <cstdlib>

__global__ void scale(float *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] *= 2.0f;
}

__global__ void sum_words(const float *v, float *out, int words)
{
    float s = 0;
    for (int p = 0; p < words; p++)
        s += v[p * 32 + threadIdx.x];
    out[threadIdx.x] = s;
}

int main(int argc, char **argv)
{
    int i;
    const int samples = atoi(argv[1]);
    unsigned char *label = (unsigned char *)malloc(samples);
    for (i = 0; i < samples; i++)
        label[i] = rand() % 2;
    int ones = 0;
    for (i = 0; i < samples; i++)
        if (label[i] == 1)
            ones++;
    int words = ceil((1.0 * (samples - ones)) / 32.0);
    float *v;
    cudaMalloc(&v, samples * sizeof(float));
    scale<<<(samples + 255) / 256, 256>>>(v, samples);
    sum_words<<<1, 32>>>(v, v, words);
    return 0;
}
