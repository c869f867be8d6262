// Loops as benchmarks write them: a size sweep stepped by a value main's
// locals fix (`g += rows / 4`, rows from the program's arguments), dim3
// locals assigned again before each launch (dim3's operator=), a second
// loop that goes on with the counter the unrolled loop before it left,
// and an outer loop nothing inside reads, longer than the walk follows
// (its requests counted from the trip counts, not cut short). After a
// loop whose increment steps three locals at once (`log2n -= 2, n >>= 2,
// m <<= 2`, a Walsh transform's), the launch sees what the loop left.
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void row_count(const float *x, int *out, int cols)
{
    const float *row = x + (size_t)blockIdx.x * cols;
    int n = 0;
    int c = threadIdx.x;
    for (; c + 3 * blockDim.x < cols; c += 4 * blockDim.x) {
        n += row[c] > 0.5f;
        n += row[c + blockDim.x] > 0.5f;
        n += row[c + 2 * blockDim.x] > 0.5f;
        n += row[c + 3 * blockDim.x] > 0.5f;
    }
    for (; c < cols; c += blockDim.x)
        n += row[c] > 0.5f;
    atomicAdd(out, n);
}

__global__ void best_match(const float *a, const float *b, float *score)
{
    int p = threadIdx.x + 64 * blockIdx.x;
    float best = 0.0f;
    for (int q = 0; q < 8192; q++) {
        float s = 0.0f;
        for (int d = 0; d < 32; d++)
            s += a[p * 32 + d] * b[q * 32 + d];
        best = s > best ? s : best;
    }
    score[p] = best;
}

__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 0.5f;
}

void transform(float *x, int m, int log2n)
{
    int n = 1 << log2n;
    for (; log2n > 11; log2n -= 2, n >>= 2, m <<= 2)
        scale<<<n / 256, 256>>>(x, n);
    scale<<<m, n / 4>>>(x, m * n / 4);
}

int main(int argc, char **argv)
{
    const int rows = atoi(argv[1]);
    const int cols = 1000;
    float *x, *s;
    int *out;
    cudaMalloc(&x, (size_t)rows * cols * sizeof(float));
    cudaMalloc(&s, 8192 * sizeof(float));
    cudaMalloc(&out, sizeof(int));
    for (int g = rows / 4; g <= rows; g += rows / 4)
        row_count<<<g, 128>>>(x, out, cols);
    dim3 blocks, threads;
    blocks = dim3(rows / 64);
    threads = dim3(64);
    best_match<<<blocks, threads>>>(x, x, s);
    blocks = dim3(rows / 32);
    threads = dim3(32);
    best_match<<<blocks, threads>>>(x, x, s);
    transform(x, 1, 21);
    return 0;
}
