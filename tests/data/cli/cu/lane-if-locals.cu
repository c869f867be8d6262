// Locals an if assigns: the same in every lane that reads them where the
// if also holds their declaration (k in edges: every lane that reads
// v[k] went through `if (i < n)` and set k alike, so v[k] is one address
// for the warp), different between lanes where it does not and the if's
// condition is the lane's own (pick: c is 4 only in the lanes whose x[i]
// is positive, so out[c * 32] is not taken for one address).
#define N 64

__global__ void edges(const float *v, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float s = 0.f;
        int k = N - 1;
        for (int j = 0; j < N; k = j++)
            s += v[j] * v[k];
        out[i] = s;
    }
}

__global__ void pick(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int c = 0;
    if (x[i] > 0.f)
        c = 4;
    out[c * 32] = 1.f;
}

int main()
{
    const int n = 1 << 20;
    float *v, *out;
    cudaMalloc(&v, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    edges<<<n / 256, 256>>>(v, out, n);
    pick<<<n / 256, 256>>>(v, out, n);
    cudaDeviceSynchronize();
    return 0;
}
