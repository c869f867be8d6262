// Driver for OneFlow's softmax and layer-norm kernels (softmax.cuh and
// layer_norm.cuh, copied unchanged from Oneflow-Inc/oneflow): one call of
// the library's own dispatcher, which picks the kernel and its launch
// configuration from the sizes, as OneFlow's operators call it.
//
//   prog softmax|layernorm ROWS COLS float|half
//
// Written for gpulint's truth set; not part of OneFlow.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <cuda_fp16.h>

#include "layer_norm.cuh"
#include "softmax.cuh"

namespace sm = oneflow::cuda::softmax;
namespace ln = oneflow::cuda::layer_norm;

static void check(cudaError_t err, const char *what)
{
    if (err != cudaSuccess) {
        std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(err));
        std::exit(1);
    }
}

template <typename T> static void softmax(int64_t rows, int64_t cols)
{
    T *x, *y;
    check(cudaMalloc(&x, rows * cols * sizeof(T)), "cudaMalloc");
    check(cudaMalloc(&y, rows * cols * sizeof(T)), "cudaMalloc");
    check(cudaMemset(x, 0, rows * cols * sizeof(T)), "cudaMemset");
    sm::DirectLoad<T, float> load(x, cols);
    sm::DirectStore<float, T> store(y, cols);
    check(sm::DispatchSoftmax<decltype(load), decltype(store), float>(0, load, store, rows, cols),
          "DispatchSoftmax");
    check(cudaDeviceSynchronize(), "softmax");
    cudaFree(x);
    cudaFree(y);
}

template <typename T> static void layernorm(int64_t rows, int64_t cols)
{
    T *x, *y;
    float *mean, *inv_variance;
    check(cudaMalloc(&x, rows * cols * sizeof(T)), "cudaMalloc");
    check(cudaMalloc(&y, rows * cols * sizeof(T)), "cudaMalloc");
    check(cudaMalloc(&mean, rows * sizeof(float)), "cudaMalloc");
    check(cudaMalloc(&inv_variance, rows * sizeof(float)), "cudaMalloc");
    check(cudaMemset(x, 0, rows * cols * sizeof(T)), "cudaMemset");
    ln::DirectLoad<T, float> load(x, cols);
    ln::DirectStore<float, T> store(y, cols);
    check(ln::DispatchLayerNorm<decltype(load), decltype(store), float>(
              0, load, store, rows, cols, 1e-5, mean, inv_variance),
          "DispatchLayerNorm");
    check(cudaDeviceSynchronize(), "layernorm");
    cudaFree(x);
    cudaFree(y);
    cudaFree(mean);
    cudaFree(inv_variance);
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        std::fprintf(stderr, "usage: %s softmax|layernorm ROWS COLS float|half\n", argv[0]);
        return 2;
    }
    int64_t rows = std::atoll(argv[2]), cols = std::atoll(argv[3]);
    bool half_ = std::strcmp(argv[4], "half") == 0;
    if (std::strcmp(argv[1], "softmax") == 0)
        half_ ? softmax<half>(rows, cols) : softmax<float>(rows, cols);
    else
        half_ ? layernorm<half>(rows, cols) : layernorm<float>(rows, cols);
    std::printf("%s rows=%lld cols=%lld %s\n", argv[1], (long long)rows, (long long)cols, argv[4]);
    return 0;
}
