// PMPP (4th ed.) exercise 4.1's kernel, as a student would type it in: a
// two-range condition, an even/odd one and a loop whose trip count is
// 5 - i % 3. The book asks, per warp, how many of the loop's iterations
// have no divergence (3) and how many do (2).
__global__ void foo_kernel(int *a, int *b)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < 40 || threadIdx.x >= 104) {
        b[i] = a[i] + 1;
    }
    if (i % 2 == 0) {
        a[i] = b[i] * 2;
    }
    for (unsigned int j = 0; j < 5 - (i % 3); ++j) {
        b[i] += j;
    }
}

void gpu_function(int *a, int *b)
{
    foo_kernel<<<(1024 + 128 - 1) / 128, 128>>>(a, b);
}
