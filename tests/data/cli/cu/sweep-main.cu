// The main unit of a program of two files named together (see
// sweep-kernels.cu): a range-for over a const vector of sizes and a
// counted loop over block sizes call the other unit's run() with each
// value; the repeat loop around them is counted, not split.
#include <cstddef>
#include <vector>

void run(float *x, size_t n, int block);

int main()
{
    std::vector<size_t> const sizes{1000, 1 << 20};
    float *x;
    cudaMalloc(&x, sizes.back() * sizeof(float));
    for (size_t const n : sizes)
        for (int block = 128; block <= 256; block *= 2)
            for (int r = 0; r < 3; r++)
                run(x, n, block);
    cudaFree(x);
    return 0;
}
