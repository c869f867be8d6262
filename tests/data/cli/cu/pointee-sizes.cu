// Sizes handed down by their address, as C and Fortran-style code passes
// them (`run(d, &n)`, the callee reading `*n_`): the caller's value holds
// where every function the address goes to only reads through it.
#include <cstdlib>

__global__ void fill(float *d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        d[i] = 1.0f;
}

// Only reads: n = 1000 from the command line, m = 512 from an assignment.
void run(float *d, int *n_, const int *m_)
{
    const int n = *n_;
    fill<<<(n + 255) / 256, 256>>>(d, n);
    fill<<<*m_ / 128, 128>>>(d, *m_);
}

// Writes through its pointer: what it leaves is not the caller's value.
void halve_and_run(float *d, int *n_)
{
    *n_ = *n_ / 2;
    fill<<<(*n_ + 255) / 256, 256>>>(d, *n_);
}

void parse(int *k_)
{
    *k_ = rand();
}

void run_one(float *d, int *k_)
{
    fill<<<1, *k_>>>(d, *k_);
}

int main(int argc, char **argv)
{
    int n = atoi(argv[1]);
    int m;
    m = 512;
    int h = 4096;
    int k = 64;
    float *d;
    cudaMalloc(&d, 1 << 20);
    run(d, &n, &m);
    halve_and_run(d, &h);
    // k's address also goes to parse, which writes it: run_one's k is unknown.
    parse(&k);
    run_one(d, &k);
    return 0;
}
