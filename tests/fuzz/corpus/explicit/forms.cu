template __global__ void k<float, 4>(const float *__restrict__ a, float *b);
extern template void f<int>(int);
template class C<int>;
template void C<int>::g(int);
x.template f<1>();
