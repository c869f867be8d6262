// check-ignore-comment.test: head.log's kernels, with gemm's register count
// accepted by a `gpulint: ignore` comment on the line above its definition.
template <int TILE>
// gpulint: ignore gpulint-max-regs (72 registers buy the 32x32 tile)
__global__ void gemm(float *c, const float *a, const float *b, int n)
{
    c[threadIdx.x] = a[threadIdx.x] * b[threadIdx.x] + n;
}

namespace fft {
__global__ void butterfly(float2 *data, int stride)
{
    data[threadIdx.x].x += data[threadIdx.x + stride].x;
}
} // namespace fft
