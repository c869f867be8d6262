// A struct's field set once, then written through another name: the first
// assignment does not hold at the launch, so the size stays a name.
struct Box {
    int nx;
    int ny;
};

__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

static void widen(Box *b) { b->nx = 4096; }

int main()
{
    float *x;
    cudaMalloc(&x, 1 << 24);
    Box box;
    box.nx = 1024;
    widen(&box); // box.nx is 4096 from here
    scale<<<box.nx / 256, 256>>>(x, box.nx);

    Box tile;
    tile.nx = 512;
    Box &alias = tile;
    alias.nx = 2048; // tile.nx is 2048 from here
    scale<<<tile.nx / 256, 256>>>(x, tile.nx);

    Box kept;
    kept.nx = 768; // nothing else writes it: 3 blocks
    scale<<<kept.nx / 256, 256>>>(x, kept.nx);
    return 0;
}
