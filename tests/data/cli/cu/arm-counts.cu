// Roofline counts of work that only some threads do, each checked by hand:
//   early:     1,024 threads, n = 1000 stay past the early return, each
//              2 FLOPs (a*2+1) and 8 B: 2,000 FLOPs, 8,000 B
//   both:      256 threads; a quarter (tid % 4 == 0) multiply: 64 FLOPs;
//              every thread reads 4 B and writes 4 B: 2,048 B, exact
//   nested:    i < 900 read and write c[i] (7,200 B); i < 300 also
//              v*v+1 (2 FLOPs): 600 FLOPs
//   runtime_n: n is argc, known only at run time: every launched thread
//              counted (1,024 FLOPs), as a bounds check's arm is
//   blocksum:  a loop over blockDim.x (8 trips at 256 threads, the trip
//              count bound from the launch) then thread 0 of each of 4
//              blocks: 1,024 x 8 + 4 x 1 = 8,196 FLOPs, 1,024 x 32 + 4 x 4
//              = 32,784 B
__global__ void early(const float *a, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    c[i] = a[i] * 2.0f + 1.0f;
}

__global__ void both(const float *a, float *c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x % 4 == 0)
        c[i] = a[i] * 3.0f;
    else
        c[i] = a[i];
}

__global__ void nested(float *c, int n, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = c[i];
        if (i < m)
            v = v * v + 1.0f;
        c[i] = v;
    }
}

__global__ void runtime_n(float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = c[i] + 1.0f;
}

__global__ void blocksum(const float *in, float *out)
{
    float s = 0.0f;
    for (int k = 1; k < blockDim.x; k *= 2)
        s += in[k];
    if (threadIdx.x == 0)
        out[blockIdx.x] = s * 0.5f;
}

int main(int argc, char **)
{
    float *p = nullptr;
    early<<<4, 256>>>(p, p, 1000);
    both<<<2, 128>>>(p, p);
    nested<<<4, 256>>>(p, 900, 300);
    runtime_n<<<4, 256>>>(p, argc);
    blocksum<<<4, 256>>>(p, p);
    return 0;
}
