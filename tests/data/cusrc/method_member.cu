// A method named on a value read through a kernel's pointer: the member
// expression "p->bits" of the call p->bits() has a placeholder type that
// libclang-22 cannot size (clang_Type_getSizeOf crashed on it).
struct alignas(16) quad {
    float v[4];
    __device__ int4 bits() const { return *reinterpret_cast<const int4 *>(v); }
};

__device__ void store_quad(float *target, quad value)
{
    *reinterpret_cast<int4 *>(target) = value.bits();
}

__global__ void copy_quads(float *out, const quad *in)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    store_quad(out + 4 * i, in[i]);
    const int4 b = in[i].bits();
    out[4 * i] += (float)b.x;
}
