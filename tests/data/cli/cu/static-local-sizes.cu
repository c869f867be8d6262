// Static locals keep their values from one call to the next: one the
// function writes after its launch sizes the second call differently, so
// it has no single value; one it never writes is its initializer.
__global__ void touch(float *out) { out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }

void step(float *out)
{
    static int blocks = 64;
    static const int threads = 128;
    static int sizes[1] = {32};
    touch<<<blocks, threads>>>(out);
    touch<<<sizes[0], threads>>>(out);
    touch<<<16, threads>>>(out);
    blocks = 256;
    sizes[0] = 512;
}

int main()
{
    float *out;
    cudaMalloc(&out, 512 * 128 * sizeof(float));
    step(out);
    step(out);
    cudaDeviceSynchronize();
    return 0;
}
