// Sizes a program reads from its options through functions main hands
// the variables' addresses to: run on the arguments --run-args gives.
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

// Single-letter flags, the way many benchmark suites read them.
static int parse_flags(int argc, char *argv[], char *file, int *quiet, int *size, int *reps)
{
    if (argc < 2)
        return 1;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] != '-')
            continue;
        switch (argv[i][1]) {
        case 's':
            i++;
            *size = atoi(argv[i]);
            printf("size %d\n", *size);
            break;
        case 'r':
            *reps = atoi(argv[++i]);
            break;
        case 'f':
            strncpy(file, argv[++i], 100);
            break;
        case 'q':
            *quiet = 1;
            break;
        }
    }
    return 0;
}

// Long options compared whole; an unknown one is skipped.
static void parse_long(int argc, char **argv, int *nx, int *block)
{
    int i = 1;
    while (i < argc) {
        if (strcmp(argv[i], "--nx") == 0 && i + 1 < argc) {
            *nx = atoi(argv[i + 1]);
            i += 2;
        } else if (strcmp(argv[i], "--block") == 0 && i + 1 < argc) {
            *block = atoi(argv[i + 1]);
            i += 2;
        } else {
            i++;
        }
    }
}

static int to_int(const char *s, int *out) { return sscanf(s, "%d", out) == 1; }

// A helper of the program's own does the conversion: run, up to its sscanf.
static void parse_checked(int argc, char **argv, int *ny)
{
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--ny") == 0)
            to_int(argv[i + 1], ny);
}

int main(int argc, char *argv[])
{
    int size = -1, reps = 1, quiet = 0;
    char file[128];
    if (parse_flags(argc, argv, file, &quiet, &size, &reps))
        return 1;
    if (size < 1) {
        FILE *fp = fopen(file, "r");
        if (!fp || fscanf(fp, "%d", &size) != 1)
            return 1;
        fclose(fp);
    }
    int nx = 64, block = 128;
    parse_long(argc, argv, &nx, &block);
    int ny = 32;
    parse_checked(argc, argv, &ny);

    float *x;
    cudaMalloc(&x, (size_t)size * sizeof(float));
    for (int r = 0; r < reps; r++)
        scale<<<(size + 255) / 256, 256>>>(x, size);
    scale<<<nx, block>>>(x, nx * block);
    scale<<<ny, 32>>>(x, ny * 32);
    cudaFree(x);
    return 0;
}
