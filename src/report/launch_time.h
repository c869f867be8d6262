/* launch_time: the time model (analysis/timing/ktime) for one launch: its counts
 * from the launch's roofline entry, its shape and occupancy from the launch
 * check, its result as JSON ("time" on the launch, predicted_time_s and
 * time_components on the roofline entry) and as a table cell. */
#ifndef GPULINT_REPORT_LAUNCH_TIME_H
#define GPULINT_REPORT_LAUNCH_TIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "model/model.h"

/* The roofline entry of the launch at file:line of kernel, or NULL. */
json_t *launch_time_roofline_entry(json_t *roofline, const char *kernel, const char *file,
                                   int line);

/* Sets "time" on launch; with copy_to_roofline, also the prediction on
 * roof (which may be NULL: no counts). */
void launch_time_add(json_t *launch, json_t *roof, bool copy_to_roofline,
                     const gpu_product *product, bool base_clock, const int64_t grid[3],
                     const int64_t block[3], int blocks_per_sm);

/* "12.3 µs (dram)", "-" without a prediction. */
void launch_time_cell(const json_t *launch, char *buf, size_t n);

#endif
