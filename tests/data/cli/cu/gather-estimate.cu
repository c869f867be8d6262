// Gathers: indices read from memory. gpulint does not have their values,
// so the requests are counted exactly and the sectors estimated: a value
// read per lane (`label[i]`) as stepping one element from lane to lane,
// one read at an address every lane shares (`first[blockIdx.x]`) as the
// same in every lane. The compulsory DRAM footprint leaves them out (a
// floor); the DRAM estimate counts them so placed.
__global__ void pick(const float *logits, const int *label, const float *weight,
                     float *loss, int n, int classes)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int t = label[i];
        loss[i] = -logits[(long)i * classes + t] * weight[t];
    }
}

__global__ void rows(const float *table, const int *first, float *out, int width)
{
    int r = first[blockIdx.x];
    out[blockIdx.x * width + threadIdx.x] = table[r * width + threadIdx.x];
}

int main()
{
    float *logits, *weight, *loss, *table, *out;
    int *label, *first;
    const int n = 1 << 16, classes = 1000, width = 256, batches = 4096;
    cudaMalloc(&logits, (size_t)n * classes * sizeof(float));
    cudaMalloc(&label, n * sizeof(int));
    cudaMalloc(&weight, classes * sizeof(float));
    cudaMalloc(&loss, n * sizeof(float));
    pick<<<n / 256, 256>>>(logits, label, weight, loss, n, classes);
    cudaMalloc(&table, (size_t)batches * width * sizeof(float));
    cudaMalloc(&first, batches * sizeof(int));
    cudaMalloc(&out, (size_t)batches * width * sizeof(float));
    rows<<<batches, width>>>(table, first, out, width);
    return 0;
}
