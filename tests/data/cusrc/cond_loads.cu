// An if's condition runs before either arm: an element it loaded is in a
// register in both, and nvcc loads it again only after a store that may
// change it. Memory filled with 0x3f bytes (0.747f) makes every condition
// true, so each arm runs. Counts held to Nsight Compute in
// tests/data/ncu/h200/cusrc-cond_loads.csv.

// b[k] once a trip (the condition's), a[i] once a trip in the arm.
__global__ void reread(const float *__restrict__ a, const float *__restrict__ b,
                       float *__restrict__ out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < 16; k++)
        if (b[k] > 0.0f)
            s += a[i] * b[k];
    out[i] = s;
}

// Each arm reads the condition's element: one load in all.
__global__ void both_arms(const float *a, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v;
    if (a[i] > 0.0f)
        v = a[i] * 2.0f;
    else
        v = -a[i];
    out[i] = v;
}

// A store through a pointer that may be a comes between: a[i] again.
__global__ void store_between(float *a, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (a[i] > 0.0f) {
        out[i] = 1.0f;
        out[i + n] = a[i];
    }
}

int main()
{
    float *a, *b, *out;
    cudaMalloc(&a, 4 << 20);
    cudaMalloc(&b, 4 << 20);
    cudaMalloc(&out, 16 << 20);
    cudaMemset(a, 0x3f, 4 << 20);
    cudaMemset(b, 0x3f, 4 << 20);
    reread<<<1024, 256>>>(a, b, out);
    both_arms<<<1024, 256>>>(a, out);
    store_between<<<1024, 256>>>(a, out, 1 << 20);
    cudaDeviceSynchronize();
    return 0;
}
