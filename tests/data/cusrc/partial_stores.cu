// Stores that write part of each sector they touch, as L2 takes them on
// an H200 (scripts/timeprobe/partialprobe.cu): `spread8` writes a word of
// each of a line's four sectors (beside others of its line: 3.55 TB/s),
// `column` a word of one sector a line (alone: 1.96 TB/s), `bytes` four
// bytes of each sector back to back, one a loop iteration (L1 merges
// them: the whole-sector rate, 4.11 TB/s), `rows` the same bytes a row
// apart from one iteration to the next (not merged: beside others).
__global__ void spread8(float *out)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    out[8 * i] = 1.f;
}

__global__ void column(float *out)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    out[32 * i] = 1.f;
}

__global__ void bytes(unsigned char *out)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (int j = 0; j < 4; j++)
        out[4 * i + j] = (unsigned char)j;
}

__global__ void rows(unsigned char *out, long row)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (int j = 0; j < 4; j++)
        out[4 * i + j * row] = (unsigned char)j;
}

int main()
{
    float *f;
    unsigned char *c;
    cudaMalloc(&f, 32L << 24);
    cudaMalloc(&c, 16L << 24);
    spread8<<<16384, 256>>>(f);
    column<<<4096, 256>>>(f);
    bytes<<<16384, 256>>>(c);
    rows<<<4096, 256>>>(c, 1L << 24);
    cudaDeviceSynchronize();
    return 0;
}
