// Whole structs copied between global arrays (HeCBench aligned-types'
// `d_odata[pos] = d_idata[pos]`, written anew). nvcc copies a struct in
// pieces of its alignment, at most 16 bytes: a 16-byte struct of four
// 4-byte ints without __align__ is four 4-byte loads and four 4-byte
// stores, each a request of its own; with __align__(16) one 16-byte load
// and one store; a 32-byte __align__(16) struct two of each; a 4-byte
// struct of chars without __align__ four 1-byte accesses each way.
struct Loose4 {
    unsigned r, g, b, a;
};
struct __align__(16) Tight4 {
    unsigned r, g, b, a;
};
struct __align__(16) Tight8 {
    Tight4 lo, hi;
};
struct Bytes4 {
    unsigned char r, g, b, a;
};

template <class T> __global__ void copy(T *out, const T *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

int main()
{
    const int n = 1 << 20;
    void *a, *b;
    cudaMalloc(&a, 32 * n);
    cudaMalloc(&b, 32 * n);
    copy<<<n / 256, 256>>>((Loose4 *)a, (const Loose4 *)b, n);
    copy<<<n / 256, 256>>>((Tight4 *)a, (const Tight4 *)b, n);
    copy<<<n / 256, 256>>>((Tight8 *)a, (const Tight8 *)b, n);
    copy<<<n / 256, 256>>>((Bytes4 *)a, (const Bytes4 *)b, n);
    return 0;
}
