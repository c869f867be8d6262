// Inline PTX where the C++ intrinsics fall short: a non-coherent 128-bit
// load, a lane id from a special register and an mma.sync tile product.
__device__ __forceinline__ float4 load_nc(const float4 *p)
{
    float4 v;
    asm volatile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p));
    return v;
}

__device__ __forceinline__ unsigned lane_id()
{
    unsigned id;
    asm("mov.u32 %0, %%laneid;" : "=r"(id));
    return id;
}

__global__ void copy_nc(float4 *dst, const float4 *src, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4)
        dst[i] = load_nc(src + i);
}

// One m16n8k16 fp16 product per warp, fragments already in registers.
__global__ void mma_tile(const unsigned *a, const unsigned *b, float *c)
{
    unsigned lane = lane_id();
    unsigned a0 = a[lane * 4], a1 = a[lane * 4 + 1], a2 = a[lane * 4 + 2], a3 = a[lane * 4 + 3];
    unsigned b0 = b[lane * 2], b1 = b[lane * 2 + 1];
    float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    c[lane * 4] = d0;
    c[lane * 4 + 1] = d1;
    c[lane * 4 + 2] = d2;
    c[lane * 4 + 3] = d3;
}
