/* localmem: a launch's local memory past the L2 (see localmem.h). */
#include "analysis/memory/localmem.h"

#include <string.h>

bool localmem_dram_traffic(const localmem_launch *l, localmem_dram *out)
{
    memset(out, 0, sizeof *out);
    if (l->frame_bytes <= 0 || l->threads <= 0 || l->resident_threads <= 0 || l->l2_bytes <= 0 ||
        (l->load_bytes <= 0 && l->store_bytes <= 0))
        return false;
    double resident = l->resident_threads < l->threads ? l->resident_threads : l->threads;
    double waves = l->threads / resident;
    /* Between two uses of a slot's line the GPU touches every resident
     * frame and its share of the other traffic of one wave of threads. */
    out->working_set = resident * l->frame_bytes + l->global_dram_bytes / waves;
    if (out->working_set <= l->l2_bytes)
        return true; /* the frames live in the L2: written back once, at most a frame a slot */
    out->miss = 1.0 - l->l2_bytes / out->working_set;
    /* Each line a thread dirties is evicted before the slot's next thread
     * writes it again: a thread's frame (what it stores of it) reaches
     * DRAM once. colorwheel's color (HeCBench, H200): 664 B a thread, 11.07
     * GB stored, 11.10 GB written. Loads find their line with the L2's
     * share of the working set. */
    double frames = l->threads * l->frame_bytes;
    out->write = l->store_bytes < frames ? l->store_bytes : frames;
    /* The last lines stored are still in the L2 when the launch ends
     * (scripts/localprobe: 262,144 threads of 1 KiB frames wrote 241.5 MB,
     * 268.4 MB less the L2's retained writes). */
    out->write = out->write > l->retained_bytes ? out->write - l->retained_bytes : 0;
    out->read = l->load_bytes * out->miss;
    return true;
}
