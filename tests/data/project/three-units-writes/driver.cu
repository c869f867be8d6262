// As ../three-units/driver.cu, but it writes through the pointer main
// lends it: by the next round the size is no longer main's, so it is not
// taken.
void launch_scale(float *x, int n);

void drive(float *x, int *n, int steps)
{
    int size = *n;
    for (int s = 0; s < steps; s++)
        launch_scale(x, size);
    *n = size * 2;
}
