// Attention's inner loop for one query per warp: dot products against the
// keys with float4 loads, an online softmax, and the weighted sum of values,
// templated on the head dimension.
template <int HEAD_DIM>
__global__ void attention_one_query(float *out, const float *q, const float *k, const float *v,
                                    int keys, float scale)
{
    static_assert(HEAD_DIM % 128 == 0, "a warp reads 4 floats per lane per step");
    const int lane = threadIdx.x % 32;
    const int query = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    const float4 *q4 = reinterpret_cast<const float4 *>(q + query * HEAD_DIM);
    float running_max = -INFINITY, running_sum = 0.0f;
    float acc[HEAD_DIM / 32] = {0.0f};
    for (int j = 0; j < keys; ++j) {
        const float4 *k4 = reinterpret_cast<const float4 *>(k + j * HEAD_DIM);
        float dot = 0.0f;
#pragma unroll
        for (int d = lane; d < HEAD_DIM / 4; d += 32) {
            float4 a = q4[d], b = k4[d];
            dot += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
        }
        for (int o = 16; o > 0; o >>= 1)
            dot += __shfl_xor_sync(0xffffffffu, dot, o);
        float score = dot * scale;
        float new_max = fmaxf(running_max, score);
        float correction = __expf(running_max - new_max), p = __expf(score - new_max);
        running_sum = running_sum * correction + p;
#pragma unroll
        for (int d = 0; d < HEAD_DIM / 32; ++d)
            acc[d] = acc[d] * correction + p * v[j * HEAD_DIM + d * 32 + lane];
        running_max = new_max;
    }
#pragma unroll
    for (int d = 0; d < HEAD_DIM / 32; ++d)
        out[query * HEAD_DIM + d * 32 + lane] = acc[d] / running_sum;
}

void attention(float *out, const float *q, const float *k, const float *v, int queries, int keys,
               int head_dim)
{
    const int warps = 4;
    if (head_dim == 128)
        attention_one_query<128><<<queries / warps, warps * 32>>>(out, q, k, v, keys, 0.0883883f);
    else
        attention_one_query<256><<<queries / warps, warps * 32>>>(out, q, k, v, keys, 0.0625f);
}
