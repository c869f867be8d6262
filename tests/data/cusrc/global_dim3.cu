// File-scope dim3 launch configurations (HeCBench's overlap: `dim3 block
// (256, 1, 1); dim3 grid (N/256, 1, 1);` at file scope): their
// constructor arguments are the sizes where no function writes them. A
// member assigned in a function, or the whole dim3 assigned through its
// operator=, leaves the size a run-time value.
#define N (1 << 20)

__global__ void scale(float *x)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] *= 2.0f;
}

dim3 block(256, 1, 1);
dim3 grid(N / 256, 1, 1);

dim3 member_block(128);
dim3 whole_block(64);

void widen() { member_block.x = 512; }
void reset() { whole_block = dim3(32); }

void run(float *x)
{
    scale<<<grid, block>>>(x);               // 4096 x 256
    scale<<<N / 128, member_block>>>(x);     // member_block.x written in widen()
    scale<<<N / 64, whole_block>>>(x);       // whole_block assigned in reset()
}

int main()
{
    float *x;
    cudaMalloc(&x, N * sizeof(float));
    widen();
    reset();
    run(x);
    return 0;
}
