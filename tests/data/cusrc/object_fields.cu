// Objects built by constructors on the host, read where the launches are.
// Shape fixes its sizes in member and base initializers and its body;
// Tile is a member object; Solver launches from a method on the object.
#include <cuda_runtime.h>

__global__ void fill(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 1.0f;
}

struct Tile {
    int w_;
    int h_ = 8; // in-class initializer, not named by the constructor
    Tile(int w) : w_(w) {}
    int w() const { return w_; }
    int h() const { return h_; }
};

class Shape {
    Tile tile_;
    int grown_;

public:
    int rows;
    Shape(int r, int w) : tile_(w), grown_(0) { rows = r * 2; }
    Tile tile() const { return tile_; }
    int grown() const { return grown_; }
    void grow() { grown_ += 1; } // written outside a constructor: never taken
};

class Solver : public Shape {
public:
    Solver(int r, int w) : Shape(r, w) {}
    void run(float *d, const Shape *copy_to)
    {
        Tile t = tile();
        const int n = rows * t.w() * t.h();
        cudaMemcpy((void *)copy_to, this, sizeof(Shape), cudaMemcpyHostToDevice);
        fill<<<(n + 255) / 256, 256>>>(d, n);      // 512 * 16 * 8 = 65,536
        fill<<<grown() + 1, 256>>>(d, 256);         // grown_: a method writes it
    }
};

int main()
{
    float *d;
    Shape *dev;
    cudaMalloc(&d, 1 << 20);
    cudaMalloc(&dev, sizeof(Shape));
    Solver s(256, 16);
    s.run(d, dev);
    Solver *heap = new Solver(64, 4);
    heap->run(d, dev); // 128 * 4 * 8 = 4,096
    Solver moved(8, 8);
    Solver *alias = &moved;
    alias->grow();
    moved.run(d, dev); // &moved handed out: not followed
    Solver *copied = new Solver(32, 2);
    Solver *other = copied; // a second pointer to it: not followed
    other->rows = 1;
    copied->run(d, dev);
    Solver named(16, 2);
    Solver &ref = named; // a reference to it: not followed
    ref.rows = 1;
    named.run(d, dev);
    return 0;
}
