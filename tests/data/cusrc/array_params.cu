// Parameters written as arrays: C makes `double a[]` and `double
// phi[][NY][NZ]` pointers, but libclang reports them as written. Each
// access below is global memory; a helper taking such a parameter is
// followed with its argument.
#define NX 64
#define NY 64
#define NZ 64

__device__ double grad_x(const double phi[][NY][NZ], int x, int y, int z)
{
    return 0.5 * (phi[x + 1][y][z] - phi[x - 1][y][z]);
}

__global__ void gradient(const double phi[][NY][NZ], double out[][NY][NZ])
{
    int z = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int x = blockIdx.z * blockDim.z + threadIdx.z;
    if (x > 0 && x < NX - 1)
        out[x][y][z] = grad_x(phi, x, y, z);
}

__global__ void scale(const float a[], float b[], int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        b[i] = 2.0f * a[i];
}

int main()
{
    double(*phi)[NY][NZ], (*out)[NY][NZ];
    float *a, *b;
    int n = 1 << 20;
    cudaMalloc(&phi, sizeof(double) * NX * NY * NZ);
    cudaMalloc(&out, sizeof(double) * NX * NY * NZ);
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    gradient<<<dim3(NZ / 32, NY / 4, NX / 2), dim3(32, 4, 2)>>>(phi, out);
    scale<<<n / 256, 256>>>(a, b, n);
    cudaDeviceSynchronize();
    return 0;
}
