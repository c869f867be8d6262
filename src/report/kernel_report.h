/* kernel_report: the per-kernel report of `gpulint FILE.cu` as an aligned
 * text table with notes, and as the JSON contract. Pure rendering. */
#ifndef GPULINT_KERNEL_REPORT_H
#define GPULINT_KERNEL_REPORT_H

#include <jansson.h>
#include <stdbool.h>

#include "analysis/occupancy/kernel_eval.h"
#include "input/ptxas.h"
#include "report/findings.h"
#include "util/sbuf.h"

typedef struct kernel_row {
    const ptxas_kernel *ptx;
    const char *demangled;
    const char *file;     /* the file compiled */
    const char *def_file; /* where the kernel is defined, when not in file (a header); line and
                             column are in it */
    int line, column;
    const gpu_arch *arch;
    const kernel_eval *eval;
    /* The source's static __shared__ declarations summed (libclang builds):
     * what a book adds up, beside what ptxas allocated. */
    bool has_declared_smem;
    int64_t declared_smem;
} kernel_row;

typedef struct kernel_report_style {
    bool color;
    int name_width; /* demangled names longer than this are shortened in text */
} kernel_report_style;

/* Tables for the rows of one (file, arch) group. */
void kernel_report_text(sbuf *out, const char *heading, const kernel_row *rows, int n,
                        const kernel_report_style *style);
/* Spills, launches that cannot start and occupancy advice, as findings. */
void kernel_report_findings(const kernel_row *rows, int n, finding_list *out);
/* One kernel's JSON object (contract fields first). */
json_t *kernel_report_json(const kernel_row *row);

#endif
