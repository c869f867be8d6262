// Loads a loop body repeats, combined with vector operators (helper_math's
// float4 `operator*` and `operator-=` on a local): nvcc loads each element
// once, as it does where the arithmetic is on plain floats; the operators
// write nothing but the local they are handed.
#include <cuda_runtime.h>

inline __device__ float4 operator*(float a, float4 b) { return make_float4(a * b.x, a * b.y, a * b.z, a * b.w); }
inline __device__ float4 operator*(float4 a, float b) { return make_float4(a.x * b, a.y * b, a.z * b, a.w * b); }
inline __device__ void operator+=(float4 &a, float4 b) { a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w; }
inline __device__ void operator-=(float4 &a, float4 b) { a.x -= b.x; a.y -= b.y; a.z -= b.z; a.w -= b.w; }

__global__ void commutator(const float4 *__restrict__ sigma, const float *__restrict__ ham,
                           float4 *__restrict__ out, int dim)
{
    int package = (blockIdx.x * blockDim.x + threadIdx.x) * dim * dim;
    for (int i = 0; i < dim; ++i)
        for (int j = 0; j < dim; ++j) {
            float4 t = make_float4(0.f, 0.f, 0.f, 0.f);
            for (int k = 0; k < dim; ++k) {
                t -= ham[i * dim + k] * sigma[package + k * dim + j];
                t += sigma[package + i * dim + k] * ham[k * dim + j];
                t += ham[i * dim + k] * sigma[package + i * dim + k];
                t -= sigma[package + k * dim + j] * ham[k * dim + j];
            }
            out[package + i * dim + j] = t;
        }
}

int main()
{
    const int dim = 7, packages = 1 << 14;
    float4 *sigma, *out;
    float *ham;
    cudaMalloc(&sigma, packages * dim * dim * sizeof(float4));
    cudaMalloc(&out, packages * dim * dim * sizeof(float4));
    cudaMalloc(&ham, dim * dim * sizeof(float));
    commutator<<<packages / 64, 64>>>(sigma, ham, out, dim);
    cudaDeviceSynchronize();
    return 0;
}
