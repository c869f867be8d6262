#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh.h"

// Like LULESH's StrToInt: strtol with its end pointer checked.
static int str_to_int(const char *token, int *value)
{
    char *end;
    if (token == NULL)
        return 0;
    *value = (int)strtol(token, &end, 10);
    return end != token && *end == '\0';
}

void parse_options(int argc, char *argv[], options *opts)
{
    for (int i = 1; i < argc; i += 2) {
        if (i + 1 >= argc) {
            fprintf(stderr, "missing value after %s\n", argv[i]);
            exit(1);
        }
        if (strcmp(argv[i], "-s") == 0) {
            if (!str_to_int(argv[i + 1], &(opts->nx)))
                exit(1);
        } else if (strcmp(argv[i], "-i") == 0) {
            if (!str_to_int(argv[i + 1], &(opts->steps)))
                exit(1);
        }
    }
}
