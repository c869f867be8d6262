// Does ptxas fuse a PTX mul.f32 and the add or sub that reads it into one
// FFMA (PTX's add, sub and mul without a rounding modifier may be
// contracted)? NVVM leaves (3.75f - 0.355f * s) * s as mul, sub, mul.
// Nsight Compute's smsp__inst_executed per launch against the PTX count.
#define FOUR(x) x x x x
#define SIXTEEN(x) FOUR(FOUR(x))
template <class T>
__global__ void mulmadd(T *data, int nIters)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    T s = data[gid], s2 = (T)10 - s;
    for (int j = 0; j < nIters; ++j) {
        SIXTEEN(s = ((T)3.75 - (T)0.355 * s) * s; s2 = ((T)3.75 - (T)0.355 * s2) * s2;)
    }
    data[gid] = s + s2;
}

// A product read twice: not fused (one FMUL, two FADDs).
__global__ void shared_product(float *data, int nIters)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    float a = data[gid], b = a + 1.f, c = a - 1.f;
    for (int j = 0; j < nIters; ++j) {
        float p = a * 0.999f;
        b = b - p;
        c = c + p;
        a = p;
    }
    data[gid] = a + b + c;
}

int main()
{
    float *d;
    double *e;
    cudaMalloc(&d, 1 << 20);
    cudaMalloc(&e, 1 << 21);
    mulmadd<float><<<256, 256>>>(d, 512);
    mulmadd<double><<<256, 256>>>(e, 512);
    shared_product<<<256, 256>>>(d, 4096);
    return cudaDeviceSynchronize() != cudaSuccess;
}
