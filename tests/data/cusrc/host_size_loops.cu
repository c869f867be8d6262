// Sizes a host function computes in a small loop before its launch: a
// round-up to a multiple of the block (HeCBench epistasis's
// `while (n % block != 0) n++;`, written anew), a power of two at least
// n, a for that doubles, a for over a counter declared before it, a
// do-while. Each is run as the program runs it.
// Loops gpulint does not run: one that adds rand(), one that would
// not end, one whose start is not known.
#include <cstdlib>

__global__ void fill(float *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }



int main(int argc, char **argv)
{
    int n = atoi(argv[1]);
    float *a;
    cudaMalloc(&a, 1 << 26);

    int block = 64;
    int padded = n;
    while (padded % block != 0)
        padded++;
    fill<<<padded / block, block>>>(a); // 31339 -> 31360: 490 blocks

    int pow2 = 1;
    while (pow2 < n)
        pow2 *= 2;
    fill<<<pow2 / 256, 256>>>(a); // 32768: 128 blocks

    int grid = 1;
    for (int i = 0; i < 5; i++)
        grid = grid * 2 + 1;
    fill<<<grid, 128>>>(a); // 63 blocks

    int k, scale = 3; // a for over a counter declared before it
    for (k = 0; k < 4; k++)
        scale = scale * 2;
    fill<<<scale, 64>>>(a); // 3 doubled 4 times: 48 blocks

    int halves = n, steps = 0;
    do {
        halves /= 2;
        steps++;
    } while (halves > 100);
    fill<<<halves * steps, 32>>>(a); // 31339 halved 9 times: 61, times 9 steps: 549 blocks

    // A size set in a sweep loop, then again in the next inner loop of a
    // repeat loop (HeCBench nw's upper-left and lower-right passes): each
    // launch sees its own loop's value (100, 200, 300 blocks; then 2, 1).
    int work;
    for (int r = 0; r < 2; r++) {
        for (int b = 1; b <= 3; b++) {
            work = b * 100;
            fill<<<work, 32>>>(a);
        }
        for (int b = 2; b >= 1; b--) {
            work = b;
            fill<<<work, 64>>>(a);
        }
    }

    int called = 0;
    while (called < n)
        called += rand() % 3 + 1;
    fill<<<called / 256, 256>>>(a);

    int endless = n;
    while (endless > 0)
        endless++;
    fill<<<endless, 256>>>(a);

    int unknown = rand();
    while (unknown % block != 0)
        unknown++;
    fill<<<unknown / block, block>>>(a);
    return 0;
}
