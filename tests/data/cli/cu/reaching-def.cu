// Locals assigned more than once: where one assignment certainly reaches
// the use, its value is used; where not, the value is unknown.

// cuda-samples' reduce6: the doubling in the if reaches the loop's step.
__global__ void doubled_in_if(const float *in, float *out, unsigned n, bool pow2)
{
    unsigned gridSize = blockDim.x * gridDim.x;
    float sum = 0;
    if (pow2) {
        unsigned i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
        gridSize = gridSize << 1;
        while (i < n) {
            sum += in[i];
            i += gridSize;
        }
    } else {
        // The other arm: only the initialiser reaches here.
        unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
        while (i < n) {
            sum += in[i];
            i += gridSize;
        }
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Compound assignments in straight-line code.
__global__ void compound(float *out)
{
    int stride = 1;
    stride *= 2;
    stride += 1;
    out[threadIdx.x * stride] = 0.0f;
}

// An assignment that only sometimes runs before the use: the if chooses (flag).
__global__ void maybe_assigned(float *out, int flag)
{
    int stride = 1;
    if (flag)
        stride = 32;
    out[threadIdx.x * stride] = 0.0f;
}

// Updated in the loop around the use: a different value each iteration.
__global__ void loop_carried(float *out)
{
    int stride = 1;
    for (int k = 0; k < 4; k++) {
        out[threadIdx.x * stride] = 0.0f;
        stride = stride * 2;
    }
}

int main()
{
    float *in = 0, *out = 0;
    doubled_in_if<<<64, 256>>>(in, out, 1u << 24, true);
    compound<<<1, 256>>>(out);
    maybe_assigned<<<1, 256>>>(out, 1);
    loop_carried<<<1, 256>>>(out);
    return 0;
}
