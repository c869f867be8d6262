// Fields of global elements as nvcc 13 loads them (PTX in the golden's
// comment): a field read again with only locals written between is not
// loaded again, and fields of one element of a vector-like type (double2,
// float4: aligned to their size) are one wide load (`cmac`: four
// ld.global.nc.v2.f64 an iteration for sixteen field reads). A local
// written that the address names (`shift`'s j) ends what was held, and so
// does one whose address was taken (`through`: `a[*pj]` names no j) or
// that a macro hides (`hidden`: `a[AT].x`, AT spelling out j; two
// ld.global each); float3 (12 bytes, aligned to 4) has no wide load
// (`xyz`: three ld.global a thread).
__global__ void cmac(const double2 *__restrict__ a, const double2 *__restrict__ b,
                     double2 *__restrict__ out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    double2 acc;
    acc.x = 0.0;
    acc.y = 0.0;
    for (int k = 0; k < n; ++k) {
        acc.x += a[k].x * b[t * n + k].x - a[k].y * b[t * n + k].y;
        acc.y += a[k].x * b[t * n + k].y + a[k].y * b[t * n + k].x;
    }
    out[t] = acc;
}

__global__ void shift(const float4 *__restrict__ a, float *__restrict__ out)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    float s = a[j].x;
    j = j + 1;
    s += a[j].x;
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void through(const float4 *__restrict__ a, float *__restrict__ out)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int *pj = &j;
    float s = a[*pj].x;
    j = j + 1;
    s += a[*pj].x;
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

#define AT (j)
__global__ void hidden(const float4 *__restrict__ a, float *__restrict__ out)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    float s = a[AT].x;
    j = j + 1;
    s += a[AT].x;
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void xyz(const float3 *__restrict__ p, float *__restrict__ out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float r = p[i].x * p[i].x;
    r += p[i].y * p[i].y;
    r += p[i].z * p[i].z;
    out[i] = r;
}

int main()
{
    double2 *a, *b, *out;
    float4 *v;
    float3 *p;
    float *o;
    const int n = 64;
    cudaMalloc(&a, 16 * n);
    cudaMalloc(&b, 16 * n * 65536);
    cudaMalloc(&out, 16 * 65536);
    cudaMalloc(&v, 16 * 65537);
    cudaMalloc(&p, 12 * 65536);
    cudaMalloc(&o, 4 * 65536);
    cmac<<<256, 256>>>(a, b, out, n);
    shift<<<256, 256>>>(v, o);
    through<<<256, 256>>>(v, o);
    hidden<<<256, 256>>>(v, o);
    xyz<<<256, 256>>>(p, o);
    return 0;
}
