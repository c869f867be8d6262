// Pointers held in a struct member of a struct the kernel takes by value
// (HeCBench d3q19-bgk's lbm_vars d_vars, whose u_star member holds the
// arrays u0, u1, u2; written anew): `v.u.u0[i]` reads the parameter, not
// memory, to find its array, so each such array is a global buffer of its
// own. Through a pointer to a const struct (`pv->u.u0[i]`) the array's
// address is read from memory, the same for every thread: a buffer of its
// own too. Through a pointer to a struct the kernel may write (`pm`) it
// stays unplaced.
struct Field {
    float *u0, *u1;
};
struct Vars {
    Field u;
    float *rho;
};

__global__ void scale(Vars v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v.u.u1[i] = v.u.u0[i] * v.rho[i];
}

__global__ void scale_through(const Vars *pv, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        pv->u.u1[i] = pv->u.u0[i];
}

__global__ void scale_mutable(Vars *pm, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        pm->u.u1[i] = pm->u.u0[i];
}

int main()
{
    const int n = 1 << 20;
    Vars v;
    Vars *pv;
    cudaMalloc(&v.u.u0, n * sizeof(float));
    cudaMalloc(&v.u.u1, n * sizeof(float));
    cudaMalloc(&v.rho, n * sizeof(float));
    cudaMalloc(&pv, sizeof(Vars));
    cudaMemcpy(pv, &v, sizeof(Vars), cudaMemcpyHostToDevice);
    scale<<<n / 256, 256>>>(v, n);
    scale_through<<<n / 256, 256>>>(pv, n);
    scale_mutable<<<n / 256, 256>>>(pv, n);
    return 0;
}
