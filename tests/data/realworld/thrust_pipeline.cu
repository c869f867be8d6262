// Thrust on the device: a transform with a functor, a sort by key and a
// reduction; the kernels are Thrust's and CUB's template instantiations.
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

struct squared_distance {
    float center;
    __host__ __device__ float operator()(float x) const { return (x - center) * (x - center); }
};

float spread(thrust::device_vector<float> &values, thrust::device_vector<int> &ids)
{
    thrust::device_vector<float> d(values.size());
    thrust::transform(values.begin(), values.end(), d.begin(), squared_distance{1.0f});
    thrust::sort_by_key(d.begin(), d.end(), ids.begin());
    return thrust::reduce(d.begin(), d.end(), 0.0f);
}
