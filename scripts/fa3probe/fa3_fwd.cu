// fa3_fwd: a host driver for FlashAttention-3's forward kernel
// (Dao-AILab/flash-attention, hopper/, BSD-3-Clause; at .fa3/COMMIT, not in
// this repository), so that the kernel builds and runs without PyTorch: the
// same template instantiation as FA3's flash_fwd_hdim128_bf16_sm90.cu
// (bf16, head dimension 128), launched as FA3's Python API would for
// batch 16, 16 heads, 4096 x 4096 tokens, once without and once with the
// causal mask. What the probe measures is the kernel, not this file.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "flash_fwd_launch_template.h"

template void run_mha_fwd_<90, cutlass::bfloat16_t, 128, 128, false, false, false, false>(
    Flash_fwd_params &params, cudaStream_t stream);

#define OK(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_));                       \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

int main()
{
    const int b = 16, h = 16, s = 4096, d = 128;
    const size_t elems = (size_t)b * s * h * d;
    void *q, *k, *v, *o;
    float *lse;
    int *semaphore;
    OK(cudaMalloc(&q, elems * 2));
    OK(cudaMalloc(&k, elems * 2));
    OK(cudaMalloc(&v, elems * 2));
    OK(cudaMalloc(&o, elems * 2));
    OK(cudaMalloc(&lse, (size_t)b * h * s * sizeof(float)));
    OK(cudaMalloc(&semaphore, sizeof(int)));
    OK(cudaMemset(q, 0, elems * 2));
    OK(cudaMemset(k, 0, elems * 2));
    OK(cudaMemset(v, 0, elems * 2));
    int sms = 0;
    OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));

    Flash_fwd_params p;
    std::memset(&p, 0, sizeof p);
    p.q_ptr = q;
    p.k_ptr = k;
    p.v_ptr = v;
    p.o_ptr = o;
    p.softmax_lse_ptr = lse;
    // [batch, seqlen, heads, dim], contiguous: FA3's layout
    p.q_row_stride = p.k_row_stride = p.v_row_stride = p.o_row_stride = (int64_t)h * d;
    p.q_head_stride = p.k_head_stride = p.v_head_stride = p.o_head_stride = d;
    p.q_batch_stride = p.k_batch_stride = p.v_batch_stride = p.o_batch_stride = (int64_t)s * h * d;
    p.v_dim_stride = 1;
    p.h = p.h_k = h;
    p.b = p.b_k = b;
    p.seqlen_q = p.seqlen_k = s;
    p.seqlen_q_rounded = p.seqlen_k_rounded = s;
    p.d = p.dv = p.d_rounded = p.dv_rounded = d;
    p.total_q = p.total_k = b * s;
    p.scale_softmax = 1.0f / sqrtf((float)d);
    p.softcap = 0.0f;
    p.p_dropout = 1.0f;
    p.rp_dropout = 1.0f;
    p.window_size_left = p.window_size_right = -1;
    p.num_splits = 1;
    p.is_bf16 = true;
    p.tile_count_semaphore = semaphore;
    p.arch = 90;
    p.num_sm = sms;

    for (int causal = 0; causal < 2; causal++) {
        p.is_causal = causal;
        p.window_size_right = causal ? 0 : -1;
        // The causal kernel's persistent scheduler hands out tiles from
        // this counter; FA3's API zeroes it before every call.
        OK(cudaMemset(semaphore, 0, sizeof(int)));
        cudaEvent_t t0, t1;
        OK(cudaEventCreate(&t0));
        OK(cudaEventCreate(&t1));
        run_mha_fwd_<90, cutlass::bfloat16_t, 128, 128, false, false, false, false>(p, 0);
        OK(cudaMemset(semaphore, 0, sizeof(int)));
        OK(cudaEventRecord(t0));
        run_mha_fwd_<90, cutlass::bfloat16_t, 128, 128, false, false, false, false>(p, 0);
        OK(cudaEventRecord(t1));
        OK(cudaEventSynchronize(t1));
        float ms = 0;
        OK(cudaEventElapsedTime(&ms, t0, t1));
        double flops = 4.0 * b * h * (double)s * s * d / (causal ? 2 : 1);
        std::printf("causal %d: %.3f ms, %.1f TFLOP/s\n", causal, ms, flops / ms / 1e9);
    }
    return 0;
}
