// wmma fragments loaded from shared memory: ptxas makes each 16 x 16 half
// load an LDSM.16.M88.4 (kernels/gemm.cu's gemm_wmma), one 16-byte row a
// lane, a quarter-warp an 8 x 8 matrix. Rows of 16 halves (32 bytes) put
// every other row of a matrix in the same banks: 2 wavefronts a matrix.
// Rows of 24 halves (48 bytes) spread them: one.
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

template <int LD>
__global__ void tile(const __half *a, float *c)
{
    __shared__ __align__(32) __half s[16][LD];
    for (int i = threadIdx.x; i < 16 * 16; i += 32)
        s[i / 16][i % 16] = a[i];
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::load_matrix_sync(fa, &s[0][0], LD);
    wmma::load_matrix_sync(fb, &s[0][0], LD);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(c + blockIdx.x * 256, acc, 16, wmma::mem_row_major);
}

void launch(const __half *a, float *c)
{
    tile<16><<<132, 32>>>(a, c);
    tile<24><<<132, 32>>>(a, c);
}
