// A host function that rounds its size parameter up to whole blocks before
// it sizes the launch (HeCBench adjacent's Test, written anew): the launch
// sees the rounded value, not the argument. One that halves its parameter
// in a loop runs the loop (1,000,000 / 8: 488 blocks); one that adds rand()
// in a loop leaves it unknown; one that changes it only after its launch
// keeps the argument.
#include <cstdlib>
__global__ void copy(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}

void rounded(const int *in, int *out, int n)
{
    const int per_block = 256;
    n = (n + per_block - 1) / per_block * per_block;
    copy<<<n / per_block, per_block>>>(in, out);
}

void halved(const int *in, int *out, int n, int steps)
{
    for (int s = 0; s < steps; s++)
        n /= 2;
    copy<<<n / 256, 256>>>(in, out);
}

void jittered(const int *in, int *out, int n)
{
    for (int s = 0; s < 4; s++)
        n += rand() % 8;
    copy<<<n / 256, 256>>>(in, out);
}

void after(const int *in, int *out, int n)
{
    copy<<<n / 256, 256>>>(in, out);
    n = 0;
    (void)n;
}

int main()
{
    int *in, *out;
    cudaMalloc(&in, 1 << 22);
    cudaMalloc(&out, 1 << 22);
    rounded(in, out, 1000000);
    halved(in, out, 1000000, 3);
    jittered(in, out, 1000000);
    after(in, out, 1000000);
    return 0;
}
