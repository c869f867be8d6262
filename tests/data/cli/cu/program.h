// The two units' shared declarations (program-main.cu, program-kernels.cu).
#include <cstdint>

struct Params {
    uint32_t width, height, repeat;
};

void run(const Params &p, float *o, int n);
