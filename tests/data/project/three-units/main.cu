// A chain of calls through three units: main lends its size by address to
// drive() in driver.cu, which reads it and calls launch_scale() in
// kernels.cu. Each unit is read in turn with the calls found so far.
void drive(float *x, int *n, int steps);

int main()
{
    int n = 1 << 20;
    float *x = nullptr;
    cudaMalloc(&x, n * sizeof(float));
    for (int round = 0; round < 4; round++)
        drive(x, &n, 3);
    cudaDeviceSynchronize();
    return 0;
}
