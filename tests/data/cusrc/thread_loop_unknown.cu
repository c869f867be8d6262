// A count that varies with the thread (a window clamped at the edges) and
// holds a loop whose trips depend on the data: the sum over the threads
// cannot be taken, and the reason given is the loop, not the thread index
// (which has no value to bind).
__global__ void window(const unsigned *__restrict__ in, unsigned *__restrict__ out, int w)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int lo = c > 2 ? c - 3 : 0;
    int hi = c < w - 4 ? c + 4 : w - 1;
    unsigned s = 0;
    for (int i = lo; i <= hi; i++)
        s += in[i];
    unsigned v = in[c];
    while (v & 1u) {
        s += in[v % w];
        v >>= 1;
    }
    out[c] = s;
}

int main()
{
    unsigned *in, *out;
    cudaMalloc(&in, 4 << 20);
    cudaMalloc(&out, 4 << 20);
    window<<<4096, 256>>>(in, out, 1 << 20);
    return 0;
}
