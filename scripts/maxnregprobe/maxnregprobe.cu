// Whether a warp-specialised block's setmaxnreg.inc is granted (issue 49):
// each kernel has W warpgroups; warpgroup 0 lowers its registers to LOW
// (none when LOW is 0) and the next RAISED warpgroups raise theirs to HIGH.
// The PTX ISA says the block's register pool is what the launch reserved
// and that .inc waits until the pool has what it asks, so a block whose
// raises add up to more than the pool should never finish. Each launch
// runs in a child process with a deadline; the parent prints
// `maxnreg,KERNEL,finished|hung,ms`. gpulint's prediction for the same
// kernels (gpulint maxnregprobe.cu --arch sm_90a) is judged against it by
// tests/maxnreg_truth.py.
#include <cstdio>
#include <csignal>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>

template <int N> __device__ __forceinline__ void raise_regs()
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" : : "n"(N));
}
template <int N> __device__ __forceinline__ void lower_regs()
{
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" : : "n"(N));
}

template <int W, int LOW, int RAISED, int HIGH>
__device__ __forceinline__ void body(float *out, const float *in, int n)
{
    int wg = threadIdx.x / 128;
    float acc = 0.0f;
    if (wg == 0) {
        if (LOW)
            lower_regs<LOW>();
    } else if (wg <= RAISED) {
        raise_regs<HIGH>();
    }
    for (int i = threadIdx.x; i < n; i += W * 128)
        acc = acc * 1.0001f + in[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Three warpgroups, the launch reserving 65536 / 384 = 168 registers a thread.
__global__ void __launch_bounds__(384, 1) w3_low40_two232(float *o, const float *i, int n)
{
    body<3, 40, 2, 232>(o, i, n);
}
__global__ void __launch_bounds__(384, 1) w3_low40_two240(float *o, const float *i, int n)
{
    body<3, 40, 2, 240>(o, i, n);
}
__global__ void __launch_bounds__(384, 1) w3_none_two232(float *o, const float *i, int n)
{
    body<3, 0, 2, 232>(o, i, n);
}
__global__ void __launch_bounds__(384, 1) w3_none_one176(float *o, const float *i, int n)
{
    body<3, 0, 1, 176>(o, i, n);
}
// Four warpgroups, 65536 / 512 = 128 a thread: one at 24 leaves room for
// three at 160 (24 + 3 x 160 = 504 <= 512) but not three at 168 (528); with
// the fourth keeping 128, two at 176 (24 + 352 + 128 = 504) but not 184.
__global__ void __launch_bounds__(512, 1) w4_low24_three160(float *o, const float *i, int n)
{
    body<4, 24, 3, 160>(o, i, n);
}
__global__ void __launch_bounds__(512, 1) w4_low24_three168(float *o, const float *i, int n)
{
    body<4, 24, 3, 168>(o, i, n);
}
__global__ void __launch_bounds__(512, 1) w4_low24_two176(float *o, const float *i, int n)
{
    body<4, 24, 2, 176>(o, i, n);
}
__global__ void __launch_bounds__(512, 1) w4_low24_two184(float *o, const float *i, int n)
{
    body<4, 24, 2, 184>(o, i, n);
}

#define N (1 << 16)

// Each kernel at its own launch site, so that gpulint sees every launch's
// block (tests/maxnreg_truth.py reads them).
static void launch(int c, float *o, const float *in)
{
    switch (c) {
    case 0: w3_low40_two232<<<132, 384>>>(o, in, N); break;
    case 1: w3_low40_two240<<<132, 384>>>(o, in, N); break;
    case 2: w3_none_two232<<<132, 384>>>(o, in, N); break;
    case 3: w3_none_one176<<<132, 384>>>(o, in, N); break;
    case 4: w4_low24_three160<<<132, 512>>>(o, in, N); break;
    case 5: w4_low24_three168<<<132, 512>>>(o, in, N); break;
    case 6: w4_low24_two176<<<132, 512>>>(o, in, N); break;
    case 7: w4_low24_two184<<<132, 512>>>(o, in, N); break;
    }
}

static const char *const names[] = {"w3_low40_two232",   "w3_low40_two240",   "w3_none_two232",
                                    "w3_none_one176",    "w4_low24_three160", "w4_low24_three168",
                                    "w4_low24_two176",   "w4_low24_two184"};

// The launch and its wait, in a child: 0 finished, 2 refused, 3 failed.
static int child(int c)
{
    float *o, *in;
    cudaMalloc(&o, 132 * 512 * sizeof(float));
    cudaMalloc(&in, N * sizeof(float));
    cudaMemset(in, 0, N * sizeof(float));
    launch(c, o, in);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
        return fprintf(stderr, "%s launch: %s\n", names[c], cudaGetErrorName(e)), 2;
    e = cudaDeviceSynchronize();
    return e == cudaSuccess ? 0 : (fprintf(stderr, "%s: %s\n", names[c], cudaGetErrorName(e)), 3);
}

int main()
{
    for (int c = 0; c < 8; c++) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0)
            _exit(child(c));
        int status = 0, waited_ms = 0;
        while (waitpid(pid, &status, WNOHANG) == 0 && waited_ms < 10000) {
            usleep(10000);
            waited_ms += 10;
        }
        bool hung = waited_ms >= 10000;
        if (hung) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
        }
        printf("maxnreg,%s,%s,%d\n", names[c],
               hung                                             ? "hung"
               : WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "finished"
                                                                : "failed",
               waited_ms);
    }
    return 0;
}
