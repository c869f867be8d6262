// CUB's BlockLoad and BlockStore move a block's tile between global memory
// and the threads' items in the arrangement their algorithm names (CUB's
// documentation of each BlockLoadAlgorithm and BlockStoreAlgorithm): a
// blocked tile (DIRECT, VECTORIZE) gives each thread ITEMS consecutive
// items, a striped one (STRIPED, TRANSPOSE) a block-wide stride, a
// warp-striped one (WARP_TRANSPOSE) a stride of 32 within each warp's
// share. With a count of valid items, the items past it are not touched.
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>

template <typename T, int THREADS, int ITEMS, cub::BlockLoadAlgorithm LOAD,
          cub::BlockStoreAlgorithm STORE>
__global__ void copy_tiles(const T *in, T *out)
{
    using Load = cub::BlockLoad<T, THREADS, ITEMS, LOAD>;
    using Store = cub::BlockStore<T, THREADS, ITEMS, STORE>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Store::TempStorage store;
    } temp;
    T items[ITEMS];
    int tile = blockIdx.x * THREADS * ITEMS;
    Load(temp.load).Load(in + tile, items);
    __syncthreads();
    Store(temp.store).Store(out + tile, items);
}

// The default algorithms (DIRECT), with the last tile cut short.
__global__ void to_bytes(const float *in, unsigned char *out, long n)
{
    float vals[4];
    unsigned char bytes[4];
    for (long i = (long)blockIdx.x * 256 * 4; i < n; i += (long)gridDim.x * 256 * 4) {
        int valid = min(n - i, 1024L);
        cub::BlockLoad<float, 256, 4>().Load(in + i, vals, valid);
        for (int j = 0; j < 4; j++)
            bytes[j] = (unsigned char)(int)vals[j];
        cub::BlockStore<unsigned char, 256, 4>().Store(out + i, bytes, valid);
    }
}

int main()
{
    const int tiles = 8192;
    int *a, *b;
    float *f;
    unsigned char *c;
    cudaMalloc(&a, tiles * 1024 * sizeof(int));
    cudaMalloc(&b, tiles * 1024 * sizeof(int));
    cudaMalloc(&f, (1 << 24) * sizeof(float));
    cudaMalloc(&c, 1 << 24);
    copy_tiles<int, 256, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::BLOCK_STORE_WARP_TRANSPOSE>
        <<<tiles, 256>>>(a, b);
    copy_tiles<int, 256, 4, cub::BLOCK_LOAD_DIRECT, cub::BLOCK_STORE_STRIPED><<<tiles, 256>>>(a, b);
    copy_tiles<int, 128, 8, cub::BLOCK_LOAD_VECTORIZE, cub::BLOCK_STORE_VECTORIZE>
        <<<tiles, 128>>>(a, b);
    copy_tiles<int, 256, 4, cub::BLOCK_LOAD_TRANSPOSE, cub::BLOCK_STORE_DIRECT>
        <<<tiles, 256>>>(a, b);
    to_bytes<<<1056, 256>>>(f, c, (1 << 24) - 1000);
    cudaDeviceSynchronize();
    return 0;
}
