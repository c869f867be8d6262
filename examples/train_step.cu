// A training step shaped like a real program: B and T are literals in main,
// passed down two calls; the model's sizes come from a file read at run time.
// gpulint sizes examples/train_step.cu lists what to fill in;
// examples/train_step.sizes is that file filled in.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

struct Config { int channels; int layers; int vocab; };
struct Model { Config config; float *params; float *acts; };

__global__ void layernorm_kernel(float *out, const float *inp, int N, int C)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N) return;
    float s = 0.f;
    for (int c = 0; c < C; c++) s += inp[i * C + c];
    float m = s / C;
    for (int c = 0; c < C; c++) out[i * C + c] = inp[i * C + c] - m;
}

__global__ void matmul_kernel(float *out, const float *inp, const float *w, int N, int C, int OC)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N * OC) return;
    int n = i / OC, o = i % OC;
    float s = 0.f;
    for (int c = 0; c < C; c++) s += inp[n * C + c] * w[o * C + c];
    out[i] = s;
}

__global__ void gelu_kernel(float *out, const float *inp, int N)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) { float x = inp[i]; out[i] = 0.5f * x * (1.f + tanhf(0.79788456f * x)); }
}

void layernorm_forward(float *out, const float *inp, int B, int T, int C)
{
    int N = B * T;
    layernorm_kernel<<<(N + 255) / 256, 256>>>(out, inp, N, C);
}

void matmul_forward(float *out, const float *inp, const float *w, int B, int T, int C, int OC)
{
    int N = B * T;
    matmul_kernel<<<(N * OC + 255) / 256, 256>>>(out, inp, w, N, C, OC);
}

void gelu_forward(float *out, const float *inp, int N)
{
    gelu_kernel<<<(N + 127) / 128, 128>>>(out, inp, N);
}

void forward(Model *model, int B, int T)
{
    int C = model->config.channels;
    int L = model->config.layers;
    float *a = model->acts, *p = model->params;
    layernorm_forward(a, a, B, T, C);
    for (int l = 0; l < L; l++) {
        layernorm_forward(a, a, B, T, C);
        matmul_forward(a, a, p, B, T, C, 3 * C);
        matmul_forward(a, a, p, B, T, C, C);
        layernorm_forward(a, a, B, T, C);
        matmul_forward(a, a, p, B, T, C, 4 * C);
        gelu_forward(a, a, B * T * 4 * C);
        matmul_forward(a, a, p, B, T, 4 * C, C);
    }
    layernorm_forward(a, a, B, T, C);
    matmul_forward(a, a, p, B, T, C, model->config.vocab);
}

int main(int argc, char **argv)
{
    Model model;
    FILE *f = fopen(argc > 1 ? argv[1] : "model.bin", "rb");
    if (!f || fread(&model.config, sizeof model.config, 1, f) != 1) return 1;
    fclose(f);
    cudaMalloc(&model.params, 1 << 28);
    cudaMalloc(&model.acts, 1 << 28);
    int B = 4;
    int T = 1024;
    for (int step = 0; step < 10; step++)
        forward(&model, B, T);
    cudaDeviceSynchronize();
    return 0;
}
