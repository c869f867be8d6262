// A kernel written in a header, as templates usually are: its loop's
// loads (nvcc unrolls the loop by 4) and its instructions must be tied to
// the compiled code's lines of this file.
template <int STRIDE>
__global__ void column_sums(const float *a, float *out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int r = 0; r < rows; r++)
        s += a[r * cols * STRIDE + col];
    out[col] = s;
}
