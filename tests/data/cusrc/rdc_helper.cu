// The callee of rdc_main.cu's kernel: a series whose local table and
// division keep registers and stack that only the device link adds to
// the kernel's.
__device__ float rdc_series(float x, int terms)
{
    float coef[32];
    for (int k = 0; k < 32; k++)
        coef[k] = 1.0f / (float)(k + 1);
    float sum = 0.0f, p = 1.0f;
    for (int k = 0; k < terms; k++) {
        sum += coef[(k * 7) % 32] * p;
        p *= x;
    }
    return sum;
}
