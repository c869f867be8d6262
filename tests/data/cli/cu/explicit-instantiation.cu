// A reduction written the way cuda-samples' reduction is: a templated
// kernel reaches its dynamic shared memory through an accessor struct, a
// host function template launches it with the block its caller chose, and
// the file only instantiates that host template explicitly (the caller is
// in another translation unit). template void reduce<long>(...) in this
// comment is not an instantiation.
template <class T> struct SharedMemory {
    __device__ inline operator T *()
    {
        extern __shared__ int smem_[];
        return (T *)smem_;
    }
};

template <class T, unsigned int blockSize>
__global__ void blockSum(const T *in, T *out, unsigned int n)
{
    T *sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockSize + threadIdx.x;
    sdata[tid] = (i < n) ? in[i] : 0;
    __syncthreads();
    for (unsigned int s = blockSize / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] = sdata[tid] + sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

template <class T> void reduce(int size, int threads, int blocks, const T *in, T *out)
{
    dim3 dimBlock(threads, 1, 1);
    dim3 dimGrid(blocks, 1, 1);
    int smemSize = threads * sizeof(T);
    switch (threads) {
    case 256:
        blockSum<T, 256><<<dimGrid, dimBlock, smemSize>>>(in, out, size);
        break;
    case 128:
        blockSum<T, 128><<<dimGrid, dimBlock, smemSize>>>(in, out, size);
        break;
    }
}

extern template void reduce<double>(int, int, int, const double *, double *);
template void reduce<int>(int size, int threads, int blocks, const int *in, int *out);
template void reduce<float>(int size, int threads, int blocks, const float *in, float *out);
