// localprobe: the DRAM bytes of local memory (a stack frame a thread) as
// the frame and the grid grow, for analysis/memory/localmem's rule: the
// frames of the resident threads stay in the L2 while they fit, and past
// it each line a thread stores reaches DRAM once. Each thread fills an
// array it then reads at indices the compiler cannot resolve (so it stays
// in local memory), and writes one float. Run under Nsight Compute with
// dram__bytes_{read,write}.sum (run.sh); gpulint reads the same file.
#include <cstdio>

template <int N>
__global__ void frame(float *out, int salt)
{
    float t[N];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < N; k++)
        t[k] = i * 0.5f + k;
    float s = 0.0f;
    for (int r = 0; r < 4; r++)
        s += t[(i + r * salt) % N];
    out[i] = s;
}

int main()
{
    float *out;
    cudaMalloc(&out, (size_t)4 << 26);
    // 256-thread blocks; 2^26 threads at most.
    frame<16><<<1 << 10, 256>>>(out, 7);
    frame<16><<<1 << 18, 256>>>(out, 7);
    frame<64><<<1 << 10, 256>>>(out, 7);
    frame<64><<<1 << 18, 256>>>(out, 7);
    frame<256><<<1 << 10, 256>>>(out, 7);
    frame<256><<<1 << 16, 256>>>(out, 7);
    frame<256><<<1 << 18, 256>>>(out, 7);
    cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
