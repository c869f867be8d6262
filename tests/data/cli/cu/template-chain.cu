// A library-style launch: the kernel is launched six calls below main,
// through templates that pick its parameters from the size at run time,
// and it reads and writes through functors it takes by value (the load's
// stride is a field of the functor: --define load.stride=2 gives it).
#include <cstdint>

template <typename T> struct Load {
    const T *src;
    int64_t stride; /* elements between consecutive loads */
    __device__ T load(int64_t i) const { return src[i * stride]; }
};

template <typename T> struct Store {
    T *dst;
    __device__ void store(int64_t i, T v) { dst[i] = v; }
};

template <typename LOAD, typename STORE, int PACK, int BLOCK>
__global__ void scale_kernel(LOAD load, STORE store, int64_t n)
{
    for (int64_t i = (int64_t)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (int64_t)gridDim.x * BLOCK)
        store.store(i, load.load(i) * 2.0f);
}

template <typename LOAD, typename STORE, int PACK, int BLOCK>
void launch(LOAD load, STORE store, int64_t n)
{
    scale_kernel<LOAD, STORE, PACK, BLOCK><<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(load, store, n);
}

template <typename LOAD, typename STORE, int PACK> struct ByBlock {
    void operator()(LOAD load, STORE store, int64_t n)
    {
        if (n < 4096)
            launch<LOAD, STORE, PACK, 128>(load, store, n);
        else
            launch<LOAD, STORE, PACK, 256>(load, store, n);
    }
};

template <typename LOAD, typename STORE> void by_pack(LOAD load, STORE store, int64_t n)
{
    if (n % 2 == 0)
        ByBlock<LOAD, STORE, 2>()(load, store, n);
    else
        ByBlock<LOAD, STORE, 1>()(load, store, n);
}

template <typename LOAD, typename STORE> void dispatch(LOAD load, STORE store, int64_t n)
{
    if (n > 0)
        by_pack(load, store, n);
}

template <typename T> void scale(const T *x, T *y, int64_t n)
{
    Load<T> load{x, 2};
    Store<T> store{y};
    dispatch(load, store, n);
}

int main()
{
    float *x, *y;
    int64_t n = 1 << 20;
    cudaMalloc(&x, 2 * n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    scale(x, y, n);
    return 0;
}
