// Compiles, but defines no __global__ kernel.
__device__ float twice(float x) { return 2.0f * x; }

static int host_only(int a) { return a + 1; }
int exported(int a) { return host_only(a); }
