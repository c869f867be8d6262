// Kernels stamped out by macros, one per activation and element type, the
// way operator libraries avoid writing the same loop twenty times.
#include <cuda_fp16.h>

#define GRID_STRIDE_LOOP(i, n)                                                                     \
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += gridDim.x * blockDim.x)

#define DEFINE_UNARY(name, T, expr)                                                                \
    __global__ void name##_##T##_kernel(T *y, const T *x, int n)                                   \
    {                                                                                              \
        GRID_STRIDE_LOOP(i, n)                                                                     \
        {                                                                                          \
            float v = (float)x[i];                                                                 \
            y[i] = (T)(expr);                                                                      \
        }                                                                                          \
    }

DEFINE_UNARY(relu, float, v > 0.0f ? v : 0.0f)
DEFINE_UNARY(silu, float, v / (1.0f + __expf(-v)))
DEFINE_UNARY(square, double, v *v)
DEFINE_UNARY(sigmoid, float, 1.0f / (1.0f + __expf(-v)))

#define LAUNCH_UNARY(name, T, y, x, n) name##_##T##_kernel<<<((n) + 255) / 256, 256>>>(y, x, n)

void activations(float *y, const float *x, double *dy, const double *dx, int n)
{
    LAUNCH_UNARY(relu, float, y, x, n);
    LAUNCH_UNARY(silu, float, y, x, n);
    LAUNCH_UNARY(square, double, dy, dx, n);
    LAUNCH_UNARY(sigmoid, float, y, x, n);
}
