// Kernels defined in kernels.cu, launched from main.cu (which only
// declares them): the layout of many programs, HeCBench's chemv and
// distort among them.
#ifndef SPLIT_KERNELS_H
#define SPLIT_KERNELS_H

struct shape {
    int rows, cols;
};

__global__ void scale(float *out, const float *in, float a, int n);
__global__ void rowsum(float *sums, const float *m, struct shape s);

// A GNU statement expression, as PPCG's generated code writes min.
#define split_min(x, y)                                                     \
    ({                                                                      \
        __typeof__(x) _x = (x);                                             \
        __typeof__(y) _y = (y);                                             \
        _x < _y ? _x : _y;                                                  \
    })

#endif
