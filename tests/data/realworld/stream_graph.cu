// Launches the modern way: cudaLaunchKernelEx with a cluster dimension and
// a launch attribute, streams and events, and a CUDA graph captured from a
// stream and replayed.
#include <cuda_runtime.h>

__global__ void __cluster_dims__(2, 1, 1) scale_cluster(float *x, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= s;
}

__global__ void shift(float *x, float d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += d;
}

cudaError_t step(float *x, int n, cudaStream_t stream)
{
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((n + 255) / 256 * 2 / 2);
    cfg.blockDim = dim3(256);
    cfg.stream = stream;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    cudaError_t e = cudaLaunchKernelEx(&cfg, scale_cluster, x, 2.0f, n);
    if (e != cudaSuccess)
        return e;
    shift<<<(n + 255) / 256, 256, 0, stream>>>(x, 1.0f, n);
    return cudaGetLastError();
}

int replay(float *x, int n, int times)
{
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    step(x, n, s);
    cudaStreamEndCapture(s, &graph);
    cudaGraphInstantiate(&exec, graph, 0);
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start, s);
    for (int t = 0; t < times; ++t)
        cudaGraphLaunch(exec, s);
    cudaEventRecord(stop, s);
    cudaEventSynchronize(stop);
    return 0;
}
