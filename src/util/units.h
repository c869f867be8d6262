/* units: parse and print sizes and rates the way users type them:
 * "48K" (bytes, binary: K = 1024), "10T" / "900G" (rates, SI: T = 1e12). */
#ifndef GPULINT_UNITS_H
#define GPULINT_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* "4096", "4K", "4KB", "4KiB", "1.5M"; K/M/G = 2^10/2^20/2^30. The result
 * must be a whole number of bytes in [0, INT64_MAX]. */
bool units_parse_bytes(const char *s, int64_t *out);
/* Non-negative integer that fits in int. */
bool units_parse_int(const char *s, int *out);
/* "10T", "900G", "2.1e9", "1.5 TFLOP/s" prefixes K M G T P (SI, 1e3 steps).
 * Must be finite and >= 0. */
bool units_parse_si(const char *s, double *out);
/* Percent: "50", "50%", "0.5" is NOT accepted as 50% (ambiguous). */
bool units_parse_percent(const char *s, double *out);

/* "256", "16x16" or "8x8x4": each extent >= 1; missing ones are 1. */
bool units_parse_dim3(const char *s, int dims[3]);

/* "48 KiB" style for bytes (exact when a whole number of KiB), into buf. */
const char *units_fmt_bytes(int64_t bytes, char *buf, size_t n);
/* "67.0 T" style SI, with `unit` appended ("FLOP/s", "B/s"). */
const char *units_fmt_si(double v, const char *unit, char *buf, size_t n);

#endif
