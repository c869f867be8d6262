// Stores into part of a sector: a face of a 400^3 grid of doubles, one
// element of every 3,200-byte row (iz == 0), and the same grid's whole
// plane (ix == 0) for comparison. The face's 159,201 sectors are each in
// a line of its own, more lines than the L2 keeps such sectors in, so the
// DRAM estimate reads the rest of most of them and writes them back
// (scripts/timeprobe/coldpartial.cu); the plane's sectors are whole.
#define N 400

__global__ void face(double (*u)[N][N], double v)
{
    unsigned iy = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned ix = blockIdx.y;
    if (iy < N)
        u[ix][iy][0] = v;
}

__global__ void plane(double (*u)[N][N], double v)
{
    unsigned iz = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned iy = blockIdx.y;
    if (iz < N)
        u[0][iy][iz] = v;
}

int main()
{
    double(*u)[N][N];
    cudaMalloc(&u, sizeof(double) * N * N * N);
    face<<<dim3(2, N), 256>>>(u, -1.0);
    plane<<<dim3(2, N), 256>>>(u, -1.0);
    cudaDeviceSynchronize();
    cudaFree(u);
    return 0;
}
