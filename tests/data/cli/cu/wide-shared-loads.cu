// A thread's four neighbouring shared loads that ptxas issues as one
// LDS.128 (kernels/gemm.cu's gemm_regtile reads its tiles so): as[k][ty*4+i]
// and bs[k][tx*4+i] for i < 4, 16-byte aligned whatever the thread. As
// scalar 4-byte loads bs would be a 2-way conflict; as the 16-byte load
// ptxas makes it is conflict-free, and padding the row (the scalar advice)
// would undo the merge. `odd` reads three words a thread: no group, kept
// as written; `strided` steps by a runtime n: not provably aligned.
#define RK 16
#define RB 64
__global__ void tiles(const float *in, float *out)
{
    __shared__ float as[RK][RB], bs[RK][RB];
    int t = threadIdx.y * 16 + threadIdx.x;
    for (int j = 0; j < 4; j++) {
        as[(t + j * 256) / RB][(t + j * 256) % RB] = in[t + j * 256];
        bs[(t + j * 256) / RB][(t + j * 256) % RB] = in[1024 + t + j * 256];
    }
    __syncthreads();
    float acc = 0;
    for (int k = 0; k < RK; k++)
        for (int i = 0; i < 4; i++)
            acc += as[k][threadIdx.y * 4 + i] * bs[k][threadIdx.x * 4 + i];
    out[blockIdx.x * 256 + t] = acc;
}

__global__ void odd(const float *in, float *out)
{
    __shared__ float s[1024];
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    float acc = 0;
    for (int i = 0; i < 3; i++)
        acc += s[threadIdx.x * 3 % 1021 + i];
    out[threadIdx.x] = acc;
}

__global__ void strided(const float *in, float *out, int n)
{
    __shared__ float s[4096];
    for (int j = threadIdx.x; j < 4096; j += 256)
        s[j] = in[j];
    __syncthreads();
    float acc = 0;
    for (int i = 0; i < 4; i++)
        acc += s[threadIdx.x * n + i];
    out[threadIdx.x] = acc;
}

void launch(const float *in, float *out)
{
    tiles<<<64, dim3(16, 16)>>>(in, out);
    odd<<<64, 256>>>(in, out);
    strided<<<64, 256>>>(in, out, 4);
}
