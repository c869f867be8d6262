// A request whose warps differ: threads 0..39 read every other float, so
// warp 0 touches 8 sectors (ideal 4) and warp 1, with 8 lanes, 2 (ideal 1):
// the worst request and the average are different numbers (8 and 5.00).
__global__ void first40(float *out, const float *in)
{
    if (threadIdx.x < 40)
        out[threadIdx.x] = in[threadIdx.x * 2];
}

void run(float *out, const float *in)
{
    first40<<<1, 64>>>(out, in);
}
