// A size a small loop computes from a caller's values: the loop runs once
// per value of main's loops, so its result is kept as the loop itself and
// evaluated where each launch has its values (a dispatch on that result
// picks the template instance launched).
#include <cstdint>
#include <stdexcept>
#include <string>

template <int PER_THREAD>
__global__ void fill(float *out)
{
    for (int k = 0; k < PER_THREAD; k++)
        out[(blockIdx.x * PER_THREAD + k) * blockDim.x + threadIdx.x] = 1.0f;
}

#define DISPATCH_PER_THREAD(VALUE, NAME, ...)                                                      \
    [&] {                                                                                          \
        if (VALUE == 1) {                                                                          \
            constexpr int NAME = 1;                                                                \
            return __VA_ARGS__();                                                                  \
        }                                                                                          \
        if (VALUE == 2) {                                                                          \
            constexpr int NAME = 2;                                                                \
            return __VA_ARGS__();                                                                  \
        }                                                                                          \
        throw std::invalid_argument("DISPATCH_PER_THREAD " + std::to_string(VALUE));               \
    }()

void run(float *out, int64_t rows, int cols)
{
    // two elements a thread where the size allows it, else one
    int per_thread = 2;
    while (per_thread > 0 && rows * cols % (256 * per_thread) != 0)
        per_thread /= 2;
    dim3 grid(rows * cols / (256 * per_thread));
    DISPATCH_PER_THREAD(per_thread, PER_THREAD, [&] { fill<PER_THREAD><<<grid, 256>>>(out); });
}

int main()
{
    float *out;
    cudaMalloc(&out, sizeof(float) * 4096 * 1280);
    for (int rows = 1; rows <= 4096; rows *= 64)
        run(out, rows, 1280);
    run(out, 3, 256); // 768 elements: one a thread
    run(out, 3, 128); // 384: neither fits, the dispatch throws and nothing is launched
    cudaDeviceSynchronize();
    return 0;
}
