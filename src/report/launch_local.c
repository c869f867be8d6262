/* launch_local: local memory's DRAM bytes, with the occupancy. */
#include "report/launch_local.h"

#include "analysis/memory/localmem.h"
#include "analysis/timing/roofline.h"
#include "util/jsontext.h"

void launch_local_apply(json_t *roof, const gpu_product *product, int64_t blocks,
                        int64_t threads_per_block, int blocks_per_sm, int64_t frame_bytes)
{
    const json_t *issue = json_object_get(roof, "issue");
    json_t *dram = json_object_get(roof, "dram_bytes");
    json_t *read = json_object_get(dram, "read"), *write = json_object_get(dram, "write");
    if (!product || !issue || !json_is_integer(read) || !json_is_integer(write))
        return;
    localmem_launch l = {
        .threads = (double)blocks * (double)threads_per_block,
        .resident_threads = (double)product->sm_count * blocks_per_sm * (double)threads_per_block,
        .frame_bytes = (double)frame_bytes,
        .load_bytes = json_number_value(json_object_get(issue, "local_load_bytes")),
        .store_bytes = json_number_value(json_object_get(issue, "local_store_bytes")),
        .global_dram_bytes = (double)(json_integer_value(read) + json_integer_value(write)),
        .l2_bytes = (double)product->l2_bytes};
    /* What the global estimate's own writes leave of the L2's retained ones. */
    double global_write = (double)json_integer_value(write);
    l.retained_bytes = product->l2_write_retained_bytes > global_write
                           ? product->l2_write_retained_bytes - global_write
                           : 0;
    localmem_dram d;
    if (!localmem_dram_traffic(&l, &d))
        return;
    json_int_t r = (json_int_t)(d.read + 0.5), w = (json_int_t)(d.write + 0.5);
    json_t *o = json_object();
    json_object_set_new(o, "frame_bytes", json_integer(frame_bytes));
    json_object_set_new(o, "load_bytes", json_integer((json_int_t)(l.load_bytes + 0.5)));
    json_object_set_new(o, "store_bytes", json_integer((json_int_t)(l.store_bytes + 0.5)));
    json_object_set_new(o, "working_set", json_integer((json_int_t)(d.working_set + 0.5)));
    json_object_set_new(o, "read", json_integer(r));
    json_object_set_new(o, "write", json_integer(w));
    json_object_set_new(
        o, "assumes",
        json_text(d.read + d.write > 0
                      ? "the resident threads' stack frames and a wave's other DRAM traffic do "
                        "not fit in the L2: each line a thread stores reaches DRAM once, and a "
                        "load misses with the chance its line was evicted (1 - L2 size / "
                        "working set)"
                      : "the resident threads' stack frames fit in the L2 with a wave's other "
                        "DRAM traffic: local memory stays there"));
    json_object_set_new(dram, "local", o);
    if (r + w == 0)
        return;
    json_object_set_new(dram, "read", json_integer(json_integer_value(read) + r));
    json_object_set_new(dram, "write", json_integer(json_integer_value(write) + w));
    json_t *bytes = json_object_get(dram, "bytes");
    if (json_is_integer(bytes))
        json_object_set_new(dram, "bytes", json_integer(json_integer_value(bytes) + r + w));
}

void launch_local_note(finding_list *findings, const char *file, int line, int column,
                       const char *kernel, const gpu_product *product, const json_t *roof)
{
    const json_t *local = json_object_get(json_object_get(roof, "dram_bytes"), "local");
    json_int_t rd = json_integer_value(json_object_get(local, "read")),
               wr = json_integer_value(json_object_get(local, "write"));
    if (rd + wr <= 0)
        return;
    char ws[48], r[48], w[48], l2[48];
    findings_add(findings, "gpulint-local-memory", SEV_NOTE, file, line, column,
                 json_pack("{s:I,s:I}", "dram_read", (json_int_t)rd, "dram_write", (json_int_t)wr),
                 "this launch of '%s' keeps a %lld-byte stack frame a thread (local arrays or "
                 "spills); the resident threads' frames and a wave's other traffic (%s) exceed "
                 "the %s L2 of %s, so its local memory moves about %s from and %s to DRAM "
                 "(estimate)",
                 kernel, (long long)json_integer_value(json_object_get(local, "frame_bytes")),
                 roofline_fmt_si((double)json_integer_value(json_object_get(local, "working_set")),
                                 "B", ws, sizeof ws),
                 roofline_fmt_si((double)product->l2_bytes, "B", l2, sizeof l2), product->name,
                 roofline_fmt_si((double)rd, "B", r, sizeof r),
                 roofline_fmt_si((double)wr, "B", w, sizeof w));
}
