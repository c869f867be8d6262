// f64lit: what ptxas makes of a double literal in an arithmetic instruction
// (fma.rn.f64 %fd2, %fd1, %fd0, 0d3FB3E2563CA48D42). A SASS instruction
// carries a 32-bit immediate: a double whose low word is zero fits it (its
// high word), any other is first moved into a uniform register pair. Each
// kernel is one thread's work; f64lit.sh counts the SASS per kernel and
// Nsight Compute's smsp__inst_executed per launch.
#include <cstdio>

// Eight coefficients whose low words are not zero (goulash's kind).
#define C0 9.9632117206253790e-01
#define C1 4.0825738726469545e-02
#define C2 6.3401613233199589e-04
#define C3 4.4158436861700431e-06
#define C4 1.1622058324043520e-08
#define C5 4.0568375699663400e-02
#define C6 6.4216825832642788e-04
#define C7 4.2661664422410096e-06
// Eight whose low words are zero: exact in 20 bits of mantissa.
#define R0 0.5
#define R1 1.25
#define R2 3.0
#define R3 0.375
#define R4 7.5
#define R5 0.0625
#define R6 1.75
#define R7 2.5

#define HORNER8(x, a, b, c, d, e, f, g, h)                                                         \
    ((((((((a) * (x) + (b)) * (x) + (c)) * (x) + (d)) * (x) + (e)) * (x) + (f)) * (x) + (g)) *      \
         (x) +                                                                                     \
     (h))

__global__ void horner_wide(const double *in, double *out)
{
    double x = in[threadIdx.x];
    out[threadIdx.x] = HORNER8(x, C0, C1, C2, C3, C4, C5, C6, C7);
}

__global__ void horner_round(const double *in, double *out)
{
    double x = in[threadIdx.x];
    out[threadIdx.x] = HORNER8(x, R0, R1, R2, R3, R4, R5, R6, R7);
}

__global__ void horner_float(const float *in, float *out)
{
    float x = in[threadIdx.x];
    out[threadIdx.x] = HORNER8(x, (float)C0, (float)C1, (float)C2, (float)C3, (float)C4,
                               (float)C5, (float)C6, (float)C7);
}

// One wide literal read by eight instructions: moved once or eight times.
__global__ void same_wide(const double *in, double *out)
{
    double x = in[threadIdx.x], y = in[threadIdx.x + 32];
    double a = x * C3, b = y * C3, c = (x + y) * C3, d = (x - y) * C3;
    double e = a * b + C3, f = c * d + C3, g = e * f + C3, h = g * e + C3;
    out[threadIdx.x] = h;
}

// Adds and multiplies by wide literals, no fusing between them.
__global__ void addmul_wide(const double *in, double *out)
{
    double x = in[threadIdx.x];
    double a = __dadd_rn(x, C0), b = __dmul_rn(a, C1), c = __dadd_rn(b, C2);
    double d = __dmul_rn(c, C3), e = __dadd_rn(d, C4), f = __dmul_rn(e, C5);
    double g = __dadd_rn(f, C6), h = __dmul_rn(g, C7);
    out[threadIdx.x] = h;
}

// A loop reading four wide literals a trip, n trips: moved out of the
// loop or in each trip.
__global__ void loop_wide(const double *in, double *out, int n)
{
    double x = in[threadIdx.x], s = 0;
    for (int i = 0; i < n; i++) {
        s = s * x + C0;
        s = s * x + C1;
        s = s * x + C2;
        s = s * x + C3;
        x = x * R0 + in[(threadIdx.x + i) & 31];
    }
    out[threadIdx.x] = s;
}

// The same loop, twenty wide literals a trip: more than uniform registers
// comfortably hold across the loop.
__global__ void loop_wide20(const double *in, double *out, int n)
{
    double x = in[threadIdx.x], s = 0;
    for (int i = 0; i < n; i++) {
        s = HORNER8(x, s + C0, C1, C2, C3, C4, C5, C6, C7);
        s = HORNER8(x, s + C7, C6, C5, C4, C3, C2, C1, C0);
        s = s * x + 1.1e-3;
        s = s * x + 2.3e-5;
        s = s * x + 3.7e-7;
        s = s * x + 5.9e-9;
        x = x * R0 + in[(threadIdx.x + i) & 31];
    }
    out[threadIdx.x] = s;
}

// A compare with a wide literal.
__global__ void setp_wide(const double *in, int *out)
{
    double x = in[threadIdx.x];
    int c = (x < C0) + (x > C1) + (x <= C2) + (x >= C3);
    out[threadIdx.x] = c;
}

int main()
{
    double *d, *o;
    float *fd, *fo;
    int *io;
    cudaMalloc(&d, 64 * sizeof(double));
    cudaMalloc(&o, 64 * sizeof(double));
    cudaMalloc(&fd, 64 * sizeof(float));
    cudaMalloc(&fo, 64 * sizeof(float));
    cudaMalloc(&io, 64 * sizeof(int));
    cudaMemset(d, 0, 64 * sizeof(double));
    cudaMemset(fd, 0, 64 * sizeof(float));
    horner_wide<<<1, 32>>>(d, o);
    horner_round<<<1, 32>>>(d, o);
    horner_float<<<1, 32>>>(fd, fo);
    same_wide<<<1, 32>>>(d, o);
    addmul_wide<<<1, 32>>>(d, o);
    loop_wide<<<1, 32>>>(d, o, 1);
    loop_wide<<<1, 32>>>(d, o, 101);
    loop_wide20<<<1, 32>>>(d, o, 1);
    loop_wide20<<<1, 32>>>(d, o, 101);
    setp_wide<<<1, 32>>>(d, io);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
