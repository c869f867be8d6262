// Sizes a class holds in fields its setters set: the constructor calls
// them, main calls them on its local object before the method that
// launches (npart_, nsteps_). A setter main calls in a loop (block_), or
// after the use in a loop around both, or that a method other than a
// setter calls on this (tile_), leaves its field with no value.
#include <cstdlib>

__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

class Sim {
    int npart_;
    int nsteps_;
    int block_;
    int tile_;

  public:
    Sim() { set_npart(1000); set_nsteps(3); block_ = 128; tile_ = 64; }
    void set_npart(const int &n) { npart_ = n; }
    void set_nsteps(int n) { nsteps_ = n; }
    void set_block(int b) { block_ = b; }
    void set_tile(int t) { tile_ = t; }
    void SetNumberOfParticles(int n) { set_npart(n); }
    int get_npart() const { return npart_; }
    int get_nsteps() const { return nsteps_; }
    void Grow()
    {
        cudaDeviceSynchronize();
        set_tile(2 * tile_);
    }
    void Start();
};

void Sim::Start()
{
    int n = get_npart();
    float *x;
    cudaMalloc(&x, n * sizeof(float));
    for (int s = 0; s < get_nsteps(); s++)
        scale<<<(n + 255) / 256, 256>>>(x, n);
    scale<<<(n + block_ - 1) / block_, block_>>>(x, n);
    scale<<<n / tile_, tile_>>>(x, n);
}

int main(int argc, char **argv)
{
    Sim sim;
    if (argc > 1)
        sim.SetNumberOfParticles(atoi(argv[1]));
    for (int r = 0; r < 2; r++)
        sim.set_block(256);
    sim.Grow();
    sim.Start();
    // Set after the use, in the loop that comes back to it: nsteps_ is
    // 3 only on the first pass, so it has no value here.
    Sim again;
    for (int r = 1; r < 3; r++) {
        again.Start();
        again.set_nsteps(r);
    }
    return 0;
}
