// Two constructors that build each other: following them must stop (cusrc_object bounds the nesting), and the grid stays unknown.
__global__ void k(int *b) { b[threadIdx.x] = 1; }
struct B;
struct A { int n; A(int k); int get() const { return n; } };
struct B { int m; B(int k) : m(A(k).get()) {} int get() const { return m; } };
A::A(int k) : n(B(k).get()) {}
int main() { A a(3); int *x; cudaMalloc(&x, 4096); k<<<a.get(), 32>>>(x); return 0; }
