// A class whose method launches a kernel, declared for both units of the
// method-main.cu / method-kernels.cu program.
#pragma once

struct Scaler {
    float factor;
    void run(float *x, int n, int block);
};
