// A struct whose integer fields main sets, passed by reference and by value
// to the functions that launch (HeCBench d3q19-bgk's BoxCU domain, written
// anew): the fields' values reach the launches' grids and blocks, also
// through a second call, and into a kernel that takes the struct and loops
// over one of its fields. A field set twice has the later value; one set
// only after the call holds the struct's initializer (0) at it, a grid of
// 0 blocks, which fails; one set in a branch, or of a struct handed by
// reference to a call that could change it before the launch's call, has
// no value. A field the callee assigns itself before its launch has the
// callee's value.
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

__global__ void rows(float *a, Box b)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    for (int x = 0; x < b.nx; x++)
        a[row * b.nx + x] *= 2.0f;
}

void sweep(const Box b, float *a)
{
    touch<<<dim3(1, b.ny, b.nz), b.nx>>>(a, b.nx * b.ny * b.nz);
}

void setup(Box &box, float *a)
{
    touch<<<dim3(1, box.ny, box.nz), box.nx>>>(a, box.nx * box.ny * box.nz);
    sweep(box, a);
    rows<<<box.nz / 32, 32>>>(a, box);
    touch<<<box.late, 128>>>(a, 1024);
    touch<<<box.twice, 128>>>(a, 1024);
}

void shrink(Box &b) { b.nx /= 2; }

void own(Box b, float *a)
{
    b.ny = 16;
    touch<<<b.ny, 32>>>(a, 512);
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

    Box other;
    other.nx = 256;
    if (argc > 5)
        other.nz = 4;
    shrink(other);
    touch<<<1, other.nx>>>(a, 0); // shrink may have changed nx
    own(other, a);
    touch<<<other.nz, 32>>>(a, 0); // set only when argc > 5
    return 0;
}
