// A loop whose iterations differ from warp to warp: lane t runs t % 40
// times, so warp 0 (trips 0..31) has 0 uniform and 31 divergent iterations,
// warp 1 (trips 32..39, then 0..23) 0 and 39.
__global__ void ragged(float *out)
{
    float s = 0.0f;
    for (int j = 0; j < (int)(threadIdx.x % 40); j++)
        s += 1.0f;
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

void run(float *out)
{
    ragged<<<2, 64>>>(out);
}
