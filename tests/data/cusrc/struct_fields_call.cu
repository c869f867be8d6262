// A struct whose integer fields main sets, passed by reference and by value
// to the functions that launch (HeCBench d3q19-bgk's BoxCU domain, written
// anew): the fields' values reach the launches' grids and blocks, also
// through a second call. A field set after the call, or set twice, does not.
#include <cstdlib>

struct Box {
    int nx = 0, ny = 0, nz = 0;
    int late = 0, twice = 0;
};

__global__ void touch(float *a, int n)
{
    int i = (blockIdx.z * gridDim.y + blockIdx.y) * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = 0.0f;
}

void sweep(const Box b, float *a)
{
    touch<<<dim3(1, b.ny, b.nz), b.nx>>>(a, b.nx * b.ny * b.nz);
}

void setup(Box &box, float *a)
{
    touch<<<dim3(1, box.ny, box.nz), box.nx>>>(a, box.nx * box.ny * box.nz);
    sweep(box, a);
    touch<<<box.late, 128>>>(a, 1024);
    touch<<<box.twice, 128>>>(a, 1024);
}

int main(int argc, char **argv)
{
    const int n = atoi(argv[1]);
    float *a;
    cudaMalloc(&a, sizeof(float) * n * n * n);
    Box box;
    box.nx = n;
    box.ny = n;
    box.nz = 2 * n;
    box.twice = 4;
    box.twice = 8;
    setup(box, a);
    box.late = 16;
    return 0;
}
