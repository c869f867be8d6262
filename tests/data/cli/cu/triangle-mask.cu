// An upper-triangular mask: the load of in[] sits in one arm of a ?: and
// runs only where the column is at most the row (nvcc predicates it), and
// a symmetric product's triangular loop reads rows past its own.
#include <cuda_runtime.h>

__global__ void upper_mask(int rows, int cols, const float *in, float fill, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < rows * cols) {
        int col = i % cols, row = i / cols;
        out[i] = col > row ? fill : in[i];
    }
}

__global__ void gram(int n, int m, const float *data, float *sym)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x;
    if (j1 < m) {
        for (int j2 = j1; j2 < m; j2++) {
            float s = 0.0f;
            for (int i = 0; i < n; i++)
                s += data[i * m + j1] * data[i * m + j2];
            sym[j1 * m + j2] = s;
        }
    }
}

int main()
{
    const int n = 4096, m = 1024;
    float *in, *out, *data, *sym;
    cudaMalloc(&in, n * n * sizeof(float));
    cudaMalloc(&out, n * n * sizeof(float));
    cudaMalloc(&data, n * m * sizeof(float));
    cudaMalloc(&sym, m * m * sizeof(float));
    upper_mask<<<n * n / 256, 256>>>(n, n, in, 0.0f, out);
    gram<<<m / 128, 128>>>(n, m, data, sym);
    cudaDeviceSynchronize();
    return 0;
}
