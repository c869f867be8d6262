// The program's sizes, defined in extern-main.cu and read by the
// kernels' unit through these declarations.
#include <cstddef>
extern size_t sites;
extern size_t half_sites;
extern int verbosity;
extern int sweeps;
void run_lattice(float *field);
