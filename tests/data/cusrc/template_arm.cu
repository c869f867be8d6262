// A template argument decides a conditional's arm (`M == 2 ? ... : ...`):
// each instantiation counts the arm it compiles, not both. k<2> makes no
// load of a[] and one extra multiply per trip; k<0> loads a[j] and skips it.
// The loop's 10,000 trips per thread are past the 4,096 a lane walk
// follows one by one: its runs come from the trip count in closed form.
template <int M>
__global__ void scan_arm(const float *a, float *out, int n)
{
    float s = 0.f;
    for (int j = 0; j < n; j++) {
        float x = M == 2 ? j * 1e-7f : a[j];
        s = s * 0.999f + x;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

int main()
{
    const int n = 10000;
    float *a, *out;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&out, 4096 * sizeof(float));
    scan_arm<2><<<16, 256>>>(a, out, n);
    scan_arm<0><<<16, 256>>>(a, out, n);
    cudaDeviceSynchronize();
    return 0;
}
