/* vcheck_ceilings: the device's roofs (DRAM bandwidth, FP32, FP64, tensor
 * rates) measured by kernels that do nothing else, beside the spec computed
 * from the product model at the device's clocks. Measured by
 * vmeasure_times. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timing/roofline.h"
#include "verify/vrun.h"

static const struct {
    const char *name;
    model_precision prec;
    bool bandwidth;
} ceiling_kinds[] = {
    {"dram", PREC_FP32, true},
    {"fp32", PREC_FP32, false},
    {"fp64", PREC_FP64, false},
    {"fp16_tensor", PREC_FP16_TENSOR, false},
    {"bf16_tensor", PREC_BF16_TENSOR, false},
};

void vcheck_ceilings_spec(vrun *x)
{
    verify_result *r = x->r;
    for (size_t i = 0; i < sizeof ceiling_kinds / sizeof ceiling_kinds[0]; i++) {
        vceiling *v = &r->ceilings[r->n_ceilings++];
        memset(v, 0, sizeof *v);
        snprintf(v->name, sizeof v->name, "%s", ceiling_kinds[i].name);
        v->bandwidth = ceiling_kinds[i].bandwidth;
        v->precision = ceiling_kinds[i].prec;
        roof_ceilings rc;
        const char *why = NULL;
        if (x->have_product && roofline_ceilings(&x->product, v->precision, ROOF_CLOCK_BOOST,
                                                 ROOF_PREFER_COMPUTED, &rc, &why)) {
            v->spec = v->bandwidth ? rc.bandwidth.computed : rc.flops.computed;
            v->datasheet = v->bandwidth ? rc.bandwidth.datasheet : rc.flops.datasheet;
        }
    }
}

void vcheck_ceilings_judge(vrun *x, int ci)
{
    const vcase *c = &x->r->manifest.cases[ci];
    vceiling *v = vrun_ceiling(x->r, c->ceiling);
    if (!v)
        return;
    snprintf(v->kernel, sizeof v->kernel, "%s", c->kernel);
    if (x->r->dry_run || x->why[ci] || !(x->raw[ci] > 0)) {
        if (x->why[ci])
            snprintf(v->note, sizeof v->note, "not measured: %s", x->why[ci]);
        return;
    }
    v->measured = (double)c->work / (x->raw[ci] * 1e-3);
    if (strstr(v->name, "tensor"))
        snprintf(v->note, sizeof v->note,
                 "mma.sync (wmma 16x16x16); Hopper's datasheet rate needs wgmma (sm_90a), "
                 "which this kernel does not use");
    /* gpulint's own count of the same kernel, where it has one. */
    const json_t *p = vpred_roofline(&x->pred, c->kernel);
    if (p) {
        double counted = v->bandwidth
                             ? vrun_jnum(p, "requested_bytes")
                             : (strstr(v->name, "tensor")
                                    ? vrun_jnum(json_object_get(p, "flops"), "tensor")
                                    : vrun_jnum(json_object_get(p, "flops"),
                                                v->precision == PREC_FP64 ? "fp64" : "fp32"));
        if (counted > 0 && fabs(counted - (double)c->work) > 0.01 * (double)c->work) {
            size_t len = strlen(v->note);
            snprintf(v->note + len, sizeof v->note - len,
                     "%sgpulint counts %.4g %s in this kernel, verify.ini %.4g", len ? "; " : "",
                     counted, v->bandwidth ? "bytes" : "FLOPs", (double)c->work);
        }
    }
}
