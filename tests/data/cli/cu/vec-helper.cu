// A register array moved as one 128-bit word through a method that
// returns a pointer into its own object (the shape of RAFT's TxN_t,
// which HeCBench's reverse2D copies): the stores through that pointer
// write registers, not memory. A method that returns a pointer member
// (the pointer it holds, not its own storage) still names memory gpulint
// cannot follow.
struct vec4f {
    float data[4];
    __device__ float4 *words() { return reinterpret_cast<float4 *>(data); }
    __device__ void load(const float *p, int i)
    {
        *words() = *reinterpret_cast<const float4 *>(&p[i]);
    }
    __device__ void store(float *p, int i) { *reinterpret_cast<float4 *>(&p[i]) = *words(); }
};

struct holder {
    float *target;
    __device__ float *where() { return target; }
};

__global__ void swap_halves(float *out, const float *in, int n)
{
    int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n / 2)
        return;
    vec4f a, b;
    a.load(in, i);
    b.load(in, i + n / 2);
    a.store(out, i + n / 2);
    b.store(out, i);
}

__global__ void through_member(holder h, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        *h.where() = in[i];
}

int main()
{
    const int n = 1 << 24;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    swap_halves<<<n / 8 / 256, 256>>>(out, in, n);
    holder h = {out};
    through_member<<<n / 256, 256>>>(h, in, n);
    cudaDeviceSynchronize();
    return 0;
}
