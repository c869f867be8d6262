// Sizes a parameter class fixes with const members initialised in the class,
// some of them floating-point (a detector's grid: its range over its cell
// size), read in main as p.field and converted to int without a cast.
#include <cstdio>

class Grid {
  public:
    const float min_x = 0.0;
    const float max_x = 69.12;
    const float min_y = -39.68; // a negative literal
    const float max_y = 39.68;
    const float cell = 0.16;
    const int cells_x = (max_x - min_x) / cell; // 432, C's truncation of float
    const int cells_y = (max_y - min_y) / cell; // 496
    const int half_x = cells_x / 2;             // 216
};

// A const member a constructor sets in its initialiser list has the value
// that constructor gives, not the one in the class: not followed. Nor has
// one of an aggregate built from a brace list, which sets members in order.
class Tile {
  public:
    const float edge = 16.0;
    explicit Tile(float e) : edge(e) {}
};

__global__ void scale(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] *= 2.0f;
}

int main()
{
    Grid g;
    Tile t(8.0f);
    Grid wide{0.0f, 138.24f};
    const int cells = g.half_x * g.cells_y;     // 107136
    const int by_area = g.max_x * g.max_y;      // 2742 (69.12f * 39.68f truncated)
    const int tiles = (g.max_x - g.min_x) / t.edge;
    const int wide_x = (wide.max_x - wide.min_x) / wide.cell; // 864 at run time
    float *a;
    cudaMalloc(&a, sizeof(float) * cells);
    scale<<<(cells + 255) / 256, 256>>>(a, cells);
    scale<<<(by_area + 127) / 128, 128>>>(a, by_area);
    scale<<<tiles, 64>>>(a, tiles * 64);
    scale<<<wide_x, 32>>>(a, wide_x * 32);
    cudaFree(a);
    return 0;
}
