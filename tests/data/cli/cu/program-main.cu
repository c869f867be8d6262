// The main unit of a program of two files named together on the command
// line (see program-kernels.cu): its sizes reach the other unit's run().
#include <cstdint>
#include <cstdlib>

#include "program.h"

int main(int argc, char **argv)
{
    if (argc != 4)
        return 1;
    Params p;
    p.width = (uint32_t)atoi(argv[1]);
    p.height = (uint32_t)atoi(argv[2]);
    p.repeat = (uint32_t)atoi(argv[3]);
    if (p.height == 0)
        p.height = p.width / 2;
    float *o;
    cudaMalloc(&o, sizeof(float) * p.width * p.height);
    run(p, o, 64);
    cudaFree(o);
    return 0;
}
