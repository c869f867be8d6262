// Device objects built where a kernel calls their methods, as CUB's
// collectives are (`BlockLoad(temp).Load(p, items)`): the constructor's
// member initialisers set the fields the methods index by, so the
// accesses are placed at them. `tile` is built in the call's own
// expression, `kept` is held by a local, `aliased` binds shared storage
// through a method that returns *this (which reads nothing). `moved`'s
// object has a method that changes its field, `bumped`'s constructor body
// changes it after its initialiser: neither field is taken.
__device__ __forceinline__ int row_major_rank(int x, int y, int z)
{
    return (z == 1 ? 0 : threadIdx.z * x * y) + (y == 1 ? 0 : threadIdx.y * x) + threadIdx.x;
}

template <int THREADS, int ITEMS>
struct Blocked {
    int rank;
    __device__ Blocked() : rank(row_major_rank(THREADS, 1, 1)) {}
    __device__ void load(const float *p, float (&v)[ITEMS]) const
    {
        for (int k = 0; k < ITEMS; k++)
            v[k] = p[rank * ITEMS + k];
    }
    __device__ void store(float *p, const float (&v)[ITEMS]) const
    {
        for (int k = 0; k < ITEMS; k++)
            p[k * THREADS + rank] = v[k];
    }
};

struct Storage {
    int pad[4];
    __device__ Storage &alias() { return *this; }
};

struct Striped {
    Storage &temp;
    int lane_base;
    __device__ Striped(Storage &t) : temp(t.alias()), lane_base(threadIdx.x) {}
    __device__ void put(float *p, float v) { p[blockIdx.x * 128 + lane_base] = v; }
};

struct Cursor {
    int pos;
    __device__ Cursor() : pos(threadIdx.x) {}
    __device__ void skip(int n) { pos += n; }
    __device__ float get(const float *p) const { return p[pos]; }
};

struct Bumped {
    int pos;
    __device__ Bumped() : pos(threadIdx.x) { pos += 32; }
    __device__ float get(const float *p) const { return p[pos]; }
};

__global__ void tile(const float *in, float *out)
{
    float v[4];
    Blocked<256, 4>().load(in + blockIdx.x * 1024, v);
    Blocked<256, 4>().store(out + blockIdx.x * 1024, v);
}

__global__ void kept(const float *in, float *out)
{
    Blocked<128, 8> b;
    float v[8];
    b.load(in + blockIdx.x * 1024, v);
    b.store(out + blockIdx.x * 1024, v);
}

__global__ void aliased(float *out)
{
    __shared__ Storage st;
    Striped(st).put(out, 1.0f);
}

__global__ void moved(const float *in, float *out)
{
    Cursor c;
    c.skip(blockIdx.x * 128);
    out[blockIdx.x * 128 + threadIdx.x] = c.get(in);
}

__global__ void bumped(const float *in, float *out)
{
    Bumped b;
    out[blockIdx.x * 128 + threadIdx.x] = b.get(in + blockIdx.x * 128);
}

int main()
{
    float *a, *b;
    cudaMalloc(&a, 4096 * 1024 * sizeof(float));
    cudaMalloc(&b, 4096 * 1024 * sizeof(float));
    tile<<<4096, 256>>>(a, b);
    kept<<<4096, 128>>>(a, b);
    aliased<<<4096, 128>>>(b);
    moved<<<4096, 128>>>(a, b);
    bumped<<<4095, 128>>>(a, b);
    cudaDeviceSynchronize();
    return 0;
}
