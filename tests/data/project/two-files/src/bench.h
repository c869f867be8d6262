// What main.cpp sees of the kernels' file.
#pragma once
#include <cstdint>

void run_saxpy(float *y, const float *x, int n, int reps);
void run_reduce(const float *x, float *out, int64_t n);
