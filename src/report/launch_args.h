/* launch_args: a launch's kernel arguments as the reports write them
 * ("C=768, OC=3 * C"), one rule for the launch table and --entry. */
#ifndef GPULINT_REPORT_LAUNCH_ARGS_H
#define GPULINT_REPORT_LAUNCH_ARGS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* One argument's value: the number, else the expression passed. */
void launch_arg_text(const json_t *arg, char *buf, size_t size);

/* Whether the argument at index goes in the list. */
typedef bool (*launch_arg_pick)(const json_t *arg, size_t index, const void *ctx);

/* "param=value, ..." of the picked arguments (all when pick is NULL),
 * ending in "..." where it does not fit; returns the length written. */
size_t launch_args_join(const json_t *args, launch_arg_pick pick, const void *ctx, char *buf,
                        size_t size);

#endif
