// A long sweep (100 values) in a function main calls twice: each row has
// two call paths, the launches between count 2 x 98, and the access the
// first and last launches share is warned about once.
__global__ void k1(float *x, int blk)
{
    x[blockIdx.x * 16 + threadIdx.x + blk] += 1.0f;
}

static void wave(float *x, int n)
{
    for (int blk = 1; blk <= n; blk++)
        k1<<<blk, 16>>>(x, blk);
}

int main()
{
    float *x;
    cudaMalloc(&x, 1 << 26);
    wave(x, 100);
    wave(x, 100);
    return 0;
}
