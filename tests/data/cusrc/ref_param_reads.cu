// A struct main fills and hands by non-const reference to helpers before
// the launches (HeCBench d3q19-bgk's `init_and_allocate_data(BoxCU &domain,
// ...)`, written anew). A helper whose body only reads the reference, or
// hands it on to one that only reads it, leaves the fields as main set
// them; one that assigns a field, takes an address, binds a non-const
// reference to it, writes from a lambda, calls a non-const method, writes
// through an int& it hands a field to, or has no body gpulint can see, may
// have changed them: those launches keep the field's name.
#include <cstdlib>

struct Box {
    int nx = 0, ny = 0;
    void grow() { nx *= 2; }
    int cells() const { return nx * ny; }
};

__global__ void touch(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = 0.0f;
}

static void fill(float *a, Box &b) { touch<<<b.nx * b.ny / 256, 256>>>(a, b.nx * b.ny); }
static int prepare(Box &b, float *a)
{
    fill(a, b);
    return b.cells(); // a const method: reads only
}
static void read_int(int &v) { (void)(v + 1); }
static void write_int(int &v) { v = 3; }
static void peek(Box &b) { read_int(b.nx); }
static void poke(Box &b) { write_int(b.ny); }
static void address(Box &b, int **out) { *out = &b.nx; }
static void alias(Box &b) { Box &c = b; c.nx = 1; }
static void lambda(Box &b) { auto f = [&] { b.ny = 2; }; f(); }
static void method(Box &b) { b.grow(); }
void elsewhere(Box &b); // defined in another file

int main(int argc, char **argv)
{
    float *a;
    cudaMalloc(&a, sizeof(float) * (1 << 24));
    int *p;
    Box r;
    r.nx = 1024;
    r.ny = 64;
    prepare(r, a);
    peek(r);
    touch<<<r.nx, r.ny>>>(a, r.nx * r.ny); // both known: only read

    Box s1, s2, s3, s4, s5, s6;
    s1.nx = 512;
    s2.nx = 512;
    s3.nx = 512;
    s4.nx = 512;
    s5.nx = 512;
    s6.ny = 32;
    address(s1, &p);
    touch<<<s1.nx, 32>>>(a, 0); // address taken
    alias(s2);
    touch<<<s2.nx, 32>>>(a, 0); // written through an alias
    lambda(s3);
    touch<<<s3.nx, 32>>>(a, 0); // ny written by a lambda: nx unchanged, but gpulint keeps the name
    method(s4);
    touch<<<s4.nx, 32>>>(a, 0); // a non-const method
    elsewhere(s5);
    touch<<<s5.nx, 32>>>(a, 0); // no body seen
    poke(s6);
    touch<<<8, s6.ny>>>(a, 0); // written through int&
    return 0;
}
