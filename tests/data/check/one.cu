// One kernel for gpulint check's compile cases: it builds only with
// -DGPULINT_CHECK_TEST, so a case without that nvcc argument (after "--")
// shows the compile-error path and one with it shows the pass-through.
#ifndef GPULINT_CHECK_TEST
#error "compile with -DGPULINT_CHECK_TEST"
#endif

__global__ void axpy(float *y, const float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] += a * x[i];
}
