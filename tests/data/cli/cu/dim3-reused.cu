// One pair of dim3s configures several launches, its components set again
// between them (jaccard's main loop declares `dim3 nthreads, nblocks;` and
// sets .x, .y, .z before each kernel). Each launch takes the components
// set last before it; the loop around the declaration starts every trip
// with new dim3s, so a later trip's settings never reach an earlier
// launch. A component set under a condition gpulint cannot decide stays
// unknown. A dim3 its constructor sets keeps those components until a
// later assignment (tb.y = 4 after the first launch).
__global__ void fill(float *x, int n, float v)
{
    int i = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x * blockDim.y +
            threadIdx.y * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = v;
}

int main(int argc, char **argv)
{
    int e = 1 << 20;
    float *x;
    cudaMalloc(&x, e * sizeof(float));
    for (int it = 0; it < 10; it++) {
        dim3 nthreads, nblocks;
        nthreads.x = 256;
        nthreads.y = 1;
        nblocks.x = (e + 255) / 256;
        fill<<<nblocks, nthreads>>>(x, e, 1.0f);
        nthreads.x = 32;
        nthreads.y = 4;
        nblocks.x = (e + 127) / 128;
        fill<<<nblocks, nthreads>>>(x, e, 2.0f);
        if (argc > 3)
            nthreads.x = 64;
        fill<<<nblocks, nthreads>>>(x, e, 3.0f);
    }
    dim3 tb(64, 1, 1), gb(e / 64, 1, 1);
    fill<<<gb, tb>>>(x, e, 4.0f);
    tb.y = 4;
    gb.x = e / 256;
    fill<<<gb, tb>>>(x, e, 5.0f);
    return 0;
}
