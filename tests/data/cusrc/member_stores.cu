// Fields of global elements stored as nvcc 13 stores them (PTX in the
// golden's comment): stores to fields of one element of a vector-like
// type (float4, double2, int2: aligned to their size), with nothing
// between them that may touch those bytes, are one wide store (`scale`'s
// four one st.global.v4.f32, `shift2`'s two one st.global.v2.f64 with the
// loads through another __restrict__ pointer between them, `swapped` in
// either order); three fields are an 8- and a 4-byte store (`three`); a
// load through a pointer that may alias between keeps them apart
// (`between`), but not one through a plain pointer to another field of an
// element of the same size (`aliased`: each element is aligned to its
// size, so x of one and y of another never overlap). The value a store
// stores is read before it: where it reads bytes the earlier store may
// have written, the stores stay apart (`value_reads`: st.global.u32,
// ld.global.f32, st.global.f32; `value_same_field`: st.global.u64,
// ld.global.f64, st.global.f64).
__global__ void scale(const float4 *__restrict__ in, float4 *__restrict__ out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = in[i];
    out[i].x = v.x * 2.f;
    out[i].y = v.y * 3.f;
    out[i].z = v.z * 4.f;
    out[i].w = v.w * 5.f;
}

__global__ void shift2(const double2 *__restrict__ in, double2 *__restrict__ out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i].x = in[i].x + 1.0;
    out[i].y = in[i].y + 2.0;
}

__global__ void aliased(const double2 *in, double2 *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i].x = in[i].x + 1.0;
    out[i].y = in[i].y + 2.0;
}

__global__ void three(float4 *__restrict__ out, float a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i].x = a;
    out[i].y = a * 2.f;
    out[i].z = a * 3.f;
}

__global__ void between(float2 *out, const float *other)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i].x = 1.f;
    float t = other[i];
    out[i].y = t;
}

__global__ void swapped(int2 *__restrict__ out, const int *__restrict__ a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i].y = a[i];
    out[i].x = a[i] + 1;
}

__global__ void value_reads(float2 *out, const float *other)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i].x = 1.f;
    out[i].y = other[i];
}

__global__ void value_same_field(double2 *out, const double2 *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i].x = 1.0;
    out[i].y = in[i].x;
}

int main()
{
    float4 *f4, *g4;
    double2 *d2, *e2;
    float2 *f2;
    float *f;
    int2 *i2;
    int *i1;
    cudaMalloc(&f4, 16 * 65536);
    cudaMalloc(&g4, 16 * 65536);
    cudaMalloc(&d2, 16 * 65536);
    cudaMalloc(&e2, 16 * 65536);
    cudaMalloc(&f2, 8 * 65536);
    cudaMalloc(&f, 4 * 65536);
    cudaMalloc(&i2, 8 * 65536);
    cudaMalloc(&i1, 4 * 65536);
    scale<<<256, 256>>>(f4, g4);
    shift2<<<256, 256>>>(d2, e2);
    aliased<<<256, 256>>>(d2, e2);
    three<<<256, 256>>>(f4, 1.f);
    between<<<256, 256>>>(f2, f);
    swapped<<<256, 256>>>(i2, i1);
    value_reads<<<256, 256>>>(f2, f);
    value_same_field<<<256, 256>>>(e2, d2);
    return 0;
}
