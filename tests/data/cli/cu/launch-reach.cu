// Launches under if, ?: and switch: with --define threads=32 the launches of
// the other cases never run (case 32 falls through to case 16), nor does the
// one under threads > 1000; 'big' is not bound, so both of its arms stay.
template <int B>
__global__ void k(float *p)
{
    p[blockIdx.x * B + threadIdx.x] = 1.0f;
}
void launch(float *p, int threads, int blocks, bool big)
{
    dim3 block(threads), grid(blocks);
    switch (threads) {
    case 512:
        k<512><<<grid, block>>>(p);
        break;
    case 256:
    case 128:
        k<256><<<grid, block>>>(p);
        if (big)
            k<128><<<grid, block>>>(p);
        else
            k<64><<<grid, block>>>(p);
        break;
    case 32:
        k<32><<<grid, block>>>(p);
    case 16:
        k<16><<<grid, block>>>(p);
        break;
    }
    if (threads > 1000)
        k<1><<<1, 1>>>(p);
}
