// A one-dimensional bulk copy through the copy engine (TMA) with the
// barrier it completes on, as the CUDA Programming Guide writes it with
// libcu++: cuda::memcpy_async of 16-byte-aligned sizes into shared memory
// becomes cp.async.bulk on sm_90, cuda::barrier mbarrier operations.
#include <cuda/barrier>
#include <utility>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;

__global__ void scale_tile(float *out, const float *in)
{
    __shared__ alignas(128) float tile[1024];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ block_barrier bar;
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    if (threadIdx.x == 0)
        cuda::memcpy_async(tile, in + blockIdx.x * 1024, cuda::aligned_size_t<16>(sizeof tile), bar);
    block_barrier::arrival_token token = bar.arrive();
    bar.wait(std::move(token));
    for (int i = threadIdx.x; i < 1024; i += blockDim.x)
        out[blockIdx.x * 1024 + i] = 2.0f * tile[i];
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, 1024 * 1024 * sizeof(float));
    cudaMalloc(&out, 1024 * 1024 * sizeof(float));
    scale_tile<<<1024, 256>>>(out, in);
    cudaDeviceSynchronize();
    return 0;
}
