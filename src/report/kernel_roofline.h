/* kernel_roofline: a launch's counts as the source front end found them,
 * handed to analysis/timing/kroof, and the result as text and JSON. */
#ifndef GPULINT_KERNEL_ROOFLINE_H
#define GPULINT_KERNEL_ROOFLINE_H

#include <jansson.h>

#include "analysis/timing/kroof.h"
#include "cusrc/cusrc.h"
#include "model/model.h"
#include "util/sbuf.h"

/* launch may be NULL (per-thread counts only). product, arch (product's:
 * what L1 keeps between loops) and memo (sites already summed over the
 * grid) may be NULL. */
void kroof_of_source(const cusrc_unit *u, const cusrc_variant *v, const cusrc_launch *launch,
                     const kroof_defines *defs, const gpu_product *product, const gpu_arch *arch,
                     kroof_branches branches, traffic_memo *memo, kroof *out);
json_t *kroof_json(const kroof *k);
/* The roofline text with each launch's DRAM estimate filled in from its
 * entry in roofline (the launch phase may have changed it). */
void kroof_text_resolve(sbuf *out, const char *text, const json_t *roofline);
void kroof_text(sbuf *out, const kroof *k);

#endif
