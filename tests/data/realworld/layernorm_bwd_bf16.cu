// A training-code layer norm backward in bf16: 128-bit packed loads through
// a small struct with methods, cooperative-groups warps, fp32 accumulation
// in shared memory and atomics for the weight gradients.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_bf16.h>

namespace cg = cooperative_groups;
typedef __nv_bfloat16 floatX;

template <class T> struct alignas(16) Packed128 {
    static constexpr int size = sizeof(int4) / sizeof(T);
    T payload[size];
    __device__ Packed128() = default;
    __device__ explicit Packed128(int4 bits) { memcpy(&payload, &bits, sizeof(bits)); }
    __device__ T &operator[](int i) { return payload[i]; }
    __device__ const T &operator[](int i) const { return payload[i]; }
    __device__ int4 get_bits() const
    {
        int4 bits;
        memcpy(&bits, &payload, sizeof(bits));
        return bits;
    }
};
typedef Packed128<floatX> x128;

__device__ x128 load128(const floatX *p) { return x128(*reinterpret_cast<const int4 *>(p)); }
__device__ void store128(floatX *p, x128 v) { *reinterpret_cast<int4 *>(p) = v.get_bits(); }

__global__ void layernorm_backward(floatX *dinp, float *dweight, float *dbias, const floatX *dout,
                                   const floatX *inp, const floatX *weight, const float *mean,
                                   const float *rstd, int rows, int C)
{
    extern __shared__ float shared[]; // dbias[C] then dweight[C]
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    float *dbias_s = shared, *dweight_s = shared + C;
    for (int c = threadIdx.x; c < 2 * C; c += blockDim.x)
        shared[c] = 0.0f;
    __syncthreads();
    int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
    if (row < rows) {
        const floatX *dout_r = dout + row * C, *inp_r = inp + row * C;
        float m = mean[row], s = rstd[row], dnorm_mean = 0.0f, dnorm_norm_mean = 0.0f;
        for (int c = warp.thread_rank() * x128::size; c < C; c += warp.size() * x128::size) {
            x128 d = load128(dout_r + c), x = load128(inp_r + c), w = load128(weight + c);
            for (int k = 0; k < x128::size; ++k) {
                float norm = ((float)x[k] - m) * s;
                float dn = (float)w[k] * (float)d[k];
                dnorm_mean += dn;
                dnorm_norm_mean += dn * norm;
            }
        }
        dnorm_mean = cg::reduce(warp, dnorm_mean, cg::plus<float>()) / C;
        dnorm_norm_mean = cg::reduce(warp, dnorm_norm_mean, cg::plus<float>()) / C;
        for (int c = warp.thread_rank() * x128::size; c < C; c += warp.size() * x128::size) {
            x128 d = load128(dout_r + c), x = load128(inp_r + c), w = load128(weight + c);
            x128 out;
            for (int k = 0; k < x128::size; ++k) {
                float norm = ((float)x[k] - m) * s;
                float dn = (float)w[k] * (float)d[k];
                atomicAdd(&dbias_s[c + k], (float)d[k]);
                atomicAdd(&dweight_s[c + k], norm * (float)d[k]);
                out[k] = (floatX)((dn - dnorm_mean - norm * dnorm_norm_mean) * s);
            }
            store128(dinp + row * C + c, out);
        }
    }
    __syncthreads();
    for (int c = threadIdx.x; c < C; c += blockDim.x) {
        atomicAdd(&dbias[c], dbias_s[c]);
        atomicAdd(&dweight[c], dweight_s[c]);
    }
}

void run(floatX *dinp, float *dw, float *db, const floatX *dout, const floatX *inp,
         const floatX *w, const float *mean, const float *rstd, int rows, int C)
{
    const int block = 512, warps = block / 32;
    size_t smem = 2 * C * sizeof(float);
    layernorm_backward<<<(rows + warps - 1) / warps, block, smem>>>(dinp, dw, db, dout, inp, w,
                                                                    mean, rstd, rows, C);
}
