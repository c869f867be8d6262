// Benchmarks sweep block sizes with a range-for: over a local array its
// initializer sets, over a braced list, over a const vector. Each value is
// a launch of its own (bs = 64, 128, 256 through a helper). An array an
// element of which is assigned, and a vector that grows, are not followed.
#include <vector>

__global__ void twice(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

void run(float *x, int n, int bs)
{
    twice<<<(n + bs - 1) / bs, bs>>>(x, n);
}

int main(int argc, char **argv)
{
    int n = 1 << 24;
    float *x;
    cudaMalloc(&x, n * sizeof(float));
    int sizes[] = {64, 128, 256};
    for (auto bs : sizes)
        run(x, n, bs);
    for (int bs : {512, 1024})
        twice<<<(n + bs - 1) / bs, bs>>>(x, n);
    const std::vector<int> odd = {32, 96};
    for (const int &bs : odd)
        twice<<<(n + bs - 1) / bs, bs>>>(x, n);
    int changed[] = {64, 128};
    changed[1] = argc * 32;
    for (int bs : changed)
        twice<<<(n + bs - 1) / bs, bs>>>(x, n);
    std::vector<int> grows = {32, 64};
    grows.push_back(argc);
    for (int bs : grows)
        twice<<<(n + bs - 1) / bs, bs>>>(x, n);
    return 0;
}
