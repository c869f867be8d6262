/* ktime: a launch's predicted time (see ktime.h and docs/roofline.md). */
#include "analysis/timing/ktime.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const part_names[KTIME_PARTS] = {
    "launch", "dram",  "l2",       "l1",      "fp16",  "fp32",  "fp64",
    "tensor", "issue", "dispatch", "latency", "chain", "atomic"};

const char *ktime_part_name(int part)
{
    return part >= 0 && part < KTIME_PARTS ? part_names[part] : "?";
}

/* A latency measured at two SM clocks, at a third: part of it counts SM
 * clocks and part does not (the L2 and DRAM run on clocks of their own),
 * so it is taken as fixed + cycles / clock through the two measurements,
 * within the clocks measured. */
static double latency_at(double ns_measured, double ns_boost, const gpu_product *p, double mhz)
{
    double lo = p->latency_clock_mhz, hi = p->boost_clock_mhz;
    if (!(ns_boost > 0) || !(lo > 0) || !(hi > lo))
        return ns_measured;
    mhz = fmin(hi, fmax(lo, mhz));
    double cycles = (ns_measured - ns_boost) / (1e3 / lo - 1e3 / hi);
    return ns_measured - cycles * 1e3 / lo + cycles * 1e3 / mhz;
}

bool ktime_consts_of(const gpu_product *p, double clock_hz, ktime_consts *out, char *why,
                     size_t why_size)
{
    memset(out, 0, sizeof *out);
    if (p->launch_ns <= 0 || p->dram_latency_ns <= 0 || p->dram_read_bandwidth <= 0 ||
        p->l1_latency_cycles <= 0) {
        snprintf(why, why_size,
                 "%s has no measured [timing] constants (scripts/timeprobe measures them)", p->id);
        return false;
    }
    if (clock_hz <= 0 || p->sm_count <= 0) {
        snprintf(why, why_size, "%s's SM clock or SM count is not known", p->id);
        return false;
    }
    out->sms = p->sm_count;
    out->clock_hz = clock_hz;
    /* Tensor work is taken as FP16 in, FP32 accumulate (as kroof does). */
    const model_precision prec[4] = {PREC_FP16, PREC_FP32, PREC_FP64, PREC_FP16_TENSOR};
    for (int i = 0; i < 4; i++)
        out->flops_per_clock_per_sm[i] = p->flops_per_clock_per_sm[prec[i]];
    out->launch_s = p->launch_ns * 1e-9;
    out->block_dispatch_s = p->block_dispatch_ns * 1e-9;
    if (p->block_interval_ns > 0 && p->block_serial_ns > p->block_interval_ns) {
        out->block_interval_s = p->block_interval_ns * 1e-9;
        out->block_serial_s = p->block_serial_ns * 1e-9;
    }
    out->dram_latency_s =
        latency_at(p->dram_latency_ns, p->boost_dram_latency_ns, p, clock_hz / 1e6) * 1e-9;
    out->dram_bandwidth = p->dram_read_bandwidth;
    out->l1_latency_cycles = p->l1_latency_cycles;
    out->barrier_cycles = p->barrier_cycles;
    out->barrier_warp_cycles = p->barrier_warp_cycles;
    out->has_l2 = p->l2_latency_ns > 0 && p->l2_read_bandwidth > 0 && p->l2_write_bandwidth > 0;
    out->l2_latency_s =
        latency_at(p->l2_latency_ns, p->boost_l2_latency_ns, p, clock_hz / 1e6) * 1e-9;
    out->l2_read_bandwidth = p->l2_read_bandwidth;
    out->l2_write_bandwidth = p->l2_write_bandwidth;
    out->l2_partial_write_bandwidth = p->l2_partial_write_bandwidth;
    out->l2_shared_partial_write_bandwidth = p->l2_shared_partial_write_bandwidth;
    out->same_address_atomic_rate = p->same_address_atomic_rate;
    out->same_address_float_atomic_rate = p->same_address_float_atomic_rate > 0
                                              ? p->same_address_float_atomic_rate
                                              : p->same_address_atomic_rate;
    /* Every SM since Maxwell (sm_50) has four warp schedulers, each issuing
     * at most one warp instruction a clock (NVIDIA's architecture
     * whitepapers; the CUDA C++ Programming Guide's throughput table counts
     * in the same units). */
    out->issue_per_clock_per_sm = 4;
    /* From Volta (sm_70) to Hopper (sm_90) a scheduler's integer ALU and
     * IMAD (FMA-heavy) pipes have 16 lanes, a warp instruction every
     * second clock, and its XU pipe 4 lanes, one every eighth (the CUDA C++
     * Programming Guide's throughput table: 64 and 16 results a clock an
     * SM; tests/data/xuprobe: 0.497 XU warp instructions a clock an SM on
     * an H200). FP64 from the product's rate: 32 lanes over its DFMA
     * lanes a scheduler. Other generations are left at one a clock. */
    int cc = 0;
    if (sscanf(p->arch, "sm_%d", &cc) == 1 && cc >= 70 && cc < 100) {
        out->pipe_clocks[PIPES_ALU] = out->pipe_clocks[PIPES_FMA_HEAVY] = 2;
        out->pipe_clocks[PIPES_XU] = 8;
        double fp64 = p->flops_per_clock_per_sm[PREC_FP64];
        out->pipe_clocks[PIPES_FP64] = fp64 > 0 ? fmax(1, 256 / fp64) : 0;
    }
    return true;
}

/* A warp's wait on its loads, phase by phase (analysis/timing/loadlat): the loads
 * of a phase are in flight together, so the phase lasts as long as its
 * slowest load's requests, one after another. A request that fetches past
 * L1 waits for DRAM where its block is in the wave that touches the sector
 * first, else for L2: blocks that share a sector ask for it together when
 * they run together, so of their fetches at least 1 / waves (sharers
 * spread evenly over the waves) and at least the grid's first touches come
 * from DRAM. *first: the wait of one request of the first phase's slowest
 * load. */
static double phased_latency(const ktime_counts *c, const ktime_consts *k, double warps,
                             double resident, double waves, bool l2, bool busiest, double *first)
{
    double l1 = k->l1_latency_cycles / k->clock_hz, total = 0, longest = 0, slowest_one = 0;
    *first = -1;
    for (size_t i = 0; i < c->n_loads; i++) {
        const ktime_load *d = &c->loads[i];
        if (i > 0 && d->phase != c->loads[i - 1].phase) {
            if (*first < 0)
                *first = slowest_one;
            total += longest;
            longest = 0;
        }
        double from_dram =
            (1 - fmin(1, fmax(0, d->seen_share))) * fmin(1, fmax(d->first_share, 1 / waves));
        double past = l2 ? from_dram * k->dram_latency_s + (1 - from_dram) * k->l2_latency_s
                         : k->dram_latency_s;
        /* Without the product's L2 constants only the grid's first
         * touches leave L1 (as the launch-wide estimate takes it). */
        double share = l2 ? d->new_share : d->new_share * from_dram;
        double each = share * past + (1 - share) * l1;
        double per_warp = busiest ? fmax(d->busiest, d->requests / warps) : d->requests / warps;
        /* The SM's L1 returns a line a clock, the resident warps' requests
         * in turn: a warp's request is done once the same request of the
         * others is (their lines queued ahead of its last one). Not the
         * throughput's wavefronts (parts): four lines a clock there put
         * hexciton's comm_refactor and comm_init (fitting half) at -45%
         * and -42%, where a line a clock here gives -18% and +9%. */
        double queue = d->requests > 0 ? d->lines / d->requests * resident / k->clock_hz : 0;
        double wait = per_warp * (each / fmax(1, d->together) + queue);
        /* *first is one memory latency (the first request of the first
         * phase), not the phase's whole loop: later iterations' waits
         * overlap with the other warps' issue. */
        if (per_warp > 0 && each + queue > slowest_one)
            slowest_one = each + queue;
        /* Under a barrier the block's warps go through the loop together:
         * each iteration lasts as long as its slowest warp's wait and the
         * barrier, so the chain is the iterations, however few warps load
         * in most of them (a tree reduction's later steps). A load of what
         * another warp of the block stored in an earlier iteration hits
         * L1: scripts/timeprobe/treeprobe.cu's in-place trees at four
         * blocks an SM hit L1 4,460,544 times and missed only on the
         * 33,792 sectors of their first read (tests/data/timeprobe/h200/
         * tree). The barrier's step is its latency with
         * one block an SM, or the resident warps' turns at issuing it
         * (the same loop with four blocks of 16 warps: 126 clocks). */
        if (d->lockstep > 0) {
            double restored = fmin(1, fmax(0, d->restored_share));
            double barrier =
                fmax(k->barrier_cycles, resident * k->barrier_warp_cycles) / k->clock_hz;
            /* the lines the SM's warps ask for in an iteration, a clock each */
            double lines = d->lines / (d->lockstep * warps) * resident / k->clock_hz;
            wait =
                fmax(wait, d->lockstep * (restored * l1 + (1 - restored) * each + barrier + lines));
        }
        if (wait > longest)
            longest = wait;
    }
    if (*first < 0)
        *first = slowest_one;
    return total + longest;
}

/* Handing out blocks: an SM starts a new block at most each interval
 * (one dispatcher, a queue), and a block then lives the rest of an empty
 * block's life plus its wait on its loads (a delay) before its slot takes
 * the next. With `resident` slots that is a closed network; exact Mean
 * Value Analysis (Reiser and Lavenberg, JACM 1980) gives its throughput.
 * scripts/timeprobe/waveprobe.cu on an H200 (tests/data/timeprobe/h200/
 * wave): with the interval and each kernel's one-block-an-SM time, it
 * gives the 262,144-block kernels' times at 2, 4 and 8 blocks an SM within
 * -9% to +18% of those measured. */
static double dispatch_time(double blocks_per_sm, int resident, double interval, double delay)
{
    double queued = 0, throughput = 0;
    for (int n = 1; n <= resident; n++) {
        double response = interval * (1 + queued);
        throughput = n / (response + delay);
        queued = throughput * response;
    }
    return blocks_per_sm / throughput;
}

/* The share of its lines a global request's contiguous runs fill, over
 * the launch's loads and stores (1 where not known). DRAM keeps its rate
 * when whole 128-byte lines are asked for together; where a warp's runs
 * are shorter than a line (8 doubles a row, a 16-float tile row: half a
 * line), another request fetches the rest later and the rate falls with
 * the share filled. On the fitting half's H200 runs, half-line copies and
 * transposes move 1.8-2.4 TB/s (ace's swapGrid, matrixT's tiled
 * transposes) where whole-line streams move 3.9-4.2 (adjacent, burger's
 * update). A run of a line or more fills its lines whatever its
 * alignment: the neighbouring requests fill the line it enters in part
 * (`a[i - 1]` beside `a[i]`). Sites a constant apart in one iteration
 * fill their lines together (analysis/memory/linefill). */
static double line_fill(const ktime_counts *c)
{
    double sectors = 0, runs = 0;
    for (int kind = TRAFFIC_LOAD; kind <= TRAFFIC_STORE; kind++)
        if (c->run_sectors[kind] > 0) {
            sectors += c->units[kind];
            runs += c->run_sectors[kind];
        }
    return runs > 0 ? fmin(1.0, fmax(0.25, sectors / runs)) : 1.0;
}

/* The time of each unit the launch keeps busy and of the latency it
 * cannot hide. Work per block is taken as equal, so the busiest SM does
 * ceil(blocks / SMs) blocks' share of the per-SM units' work. */
static void parts(const ktime_counts *c, const ktime_consts *k, ktime *t)
{
    double blocks = (double)c->blocks;
    double busiest = ceil(blocks / k->sms) / blocks;
    double warps_per_block = ceil(c->threads_per_block / 32.0);
    t->waves = ceil(blocks / ((double)k->sms * c->blocks_per_sm));
    /* An SM is handed its blocks one after another: those of the first
     * wave start that much later (the empty-kernel probe's extra time with
     * 16 blocks an SM); later blocks take the place of finished ones while
     * the others work. */
    double first_wave = fmin(ceil(blocks / k->sms), (double)c->blocks_per_sm);
    double fill = line_fill(c);
    t->part[KTIME_LAUNCH] = k->launch_s + k->block_dispatch_s * fmax(0, first_wave - 1);
    /* A stream's first bytes arrive one DRAM latency after its first
     * request; the bandwidth counts from then on. */
    if (c->dram_bytes > 0 || c->local_dram_bytes > 0)
        t->part[KTIME_DRAM] = k->dram_latency_s + c->dram_bytes / (k->dram_bandwidth * fill) +
                              c->local_dram_bytes / k->dram_bandwidth;
    for (int i = 0; i < 4; i++)
        if (c->flops[i] > 0 && k->flops_per_clock_per_sm[i] > 0)
            t->part[KTIME_FP16 + i] =
                c->flops[i] * busiest / (k->flops_per_clock_per_sm[i] * k->clock_hz);
    /* A scheduler issues a warp instruction a clock where its pipes keep
     * up; an instruction whose half-rate pipe took the one before waits
     * (analysis/timing/pipes). */
    if (c->warp_insts > 0)
        t->part[KTIME_ISSUE] = c->warp_insts * busiest *
                               pipes_issue_clocks(c->pipe_insts, k->pipe_clocks) /
                               (k->issue_per_clock_per_sm * k->clock_hz);
    /* A scheduler interleaves its warps, but none of them issues faster
     * than its own instructions' latencies let it: with few warps a
     * scheduler, a wave lasts at least the mean warp's dependent chain
     * (a lone thread's loop of square roots, 8 warps an SM). */
    if (c->chain_cycles > 0 && c->threads_per_block > 0)
        t->part[KTIME_CHAIN] =
            t->waves * c->chain_cycles / (blocks * warps_per_block) / k->clock_hz;
    if (!c->has_traffic)
        return;
    /* L1: one request a clock into the tag stage, one wavefront a clock
     * out of the data stage (shared wavefronts included). A global load's
     * wavefronts are its lines four a clock, or the most of its lines
     * whose words share a bank (analysis/warp/coalesce): 32 lanes at a
     * 128-byte stride take 32, at 132 bytes 8. */
    const double *r = c->requests, *u = c->units;
    double waves =
        c->wavefronts[TRAFFIC_LOAD] > 0 ? c->wavefronts[TRAFFIC_LOAD] : c->lines[TRAFFIC_LOAD];
    double load_wavefronts = fmax(waves, u[TRAFFIC_LOAD] / 4.0);
    double data = fmax(r[TRAFFIC_LOAD], load_wavefronts) + u[TRAFFIC_SHARED];
    double cycles = fmax(data, r[TRAFFIC_LOAD] + r[TRAFFIC_STORE] + r[TRAFFIC_ATOMIC]);
    t->part[KTIME_L1] = cycles * busiest / k->clock_hz;
    /* Atomics at one address wait for one another at its L2 slice, at
     * the rates atomprobe measured (tests/data/timeprobe/h200/atom: an
     * integer's 1.37 a ns, a float's or a double's 0.57; a lane at a time
     * where ptxas does not sum them first). Sites at different addresses
     * are taken as one after another too. */
    if (c->one_address_atomics > 0 && k->same_address_atomic_rate > 0)
        t->part[KTIME_ATOMIC] =
            (c->one_address_atomics - c->one_address_float_atomics) / k->same_address_atomic_rate +
            c->one_address_float_atomics / k->same_address_float_atomic_rate;
    /* L2: loads and stores share its slices, so their times add; a store
     * that writes part of a sector takes longer than a whole one (where
     * the product's rate for them was measured). */
    bool l2 = c->has_l2 && k->has_l2;
    if (l2) {
        double partial = k->l2_partial_write_bandwidth > 0
                             ? fmin(c->l2_partial_write_sectors, c->l2_write_sectors)
                             : 0;
        double shared =
            k->l2_shared_partial_write_bandwidth > 0
                ? fmin(c->l2_shared_partial_write_sectors, c->l2_write_sectors - partial)
                : 0;
        t->part[KTIME_L2] = 32 * c->l2_read_sectors / k->l2_read_bandwidth +
                            32 * (c->l2_write_sectors - partial - shared) / k->l2_write_bandwidth +
                            (partial > 0 ? 32 * partial / k->l2_partial_write_bandwidth : 0) +
                            (shared > 0 ? 32 * shared / k->l2_shared_partial_write_bandwidth : 0);
    }
    /* Latency: the phases of a warp's loads where analysis/timing/loadlat placed
     * them. Else each load request of a warp waits for the one before; of
     * the sectors it asks for, the share DRAM must read comes from DRAM,
     * the share that reaches L2 beyond that from L2 (where it is
     * modelled), the rest from L1. The warps of a wave overlap; waves
     * follow one another. */
    double warps = blocks * warps_per_block, chain = 0;
    if (c->n_loads > 0 && warps > 0) {
        double first, first_busiest;
        /* The waves of a mean warp's chain, and never less than the
         * busiest warp's chain alone (a triangular loop's first warp, a
         * loop only thread 0 runs): that warp runs from start to end. */
        double resident = fmin(ceil(blocks / k->sms), (double)c->blocks_per_sm) * warps_per_block;
        chain = phased_latency(c, k, warps, resident, t->waves, l2, false, &first);
        t->part[KTIME_LATENCY] =
            fmax(t->waves * chain,
                 phased_latency(c, k, warps, resident, t->waves, l2, true, &first_busiest));
        /* Warps that issue longer than they wait are issue-bound, and
         * still wait, at the start of each wave, for their first loads:
         * nothing is ready to issue before them (Hong and Kim's
         * compute-bound case, ISCA 2009: one memory latency per repetition
         * besides the computation). Later phases overlap with other warps'
         * issue. */
        if (t->part[KTIME_ISSUE] > t->part[KTIME_LATENCY])
            t->part[KTIME_ISSUE] += t->waves * first;
    } else if (r[TRAFFIC_LOAD] > 0 && warps > 0) {
        double per_warp = r[TRAFFIC_LOAD] / warps;
        double sectors = u[TRAFFIC_LOAD];
        double dram = sectors > 0 ? fmin(1.0, c->dram_read_sectors / sectors) : 1;
        double past_l1 =
            l2 && sectors > 0 ? fmin(1.0, fmax(dram, c->l2_read_sectors / sectors)) : dram;
        double each = dram * k->dram_latency_s + (past_l1 - dram) * k->l2_latency_s +
                      (1 - past_l1) * k->l1_latency_cycles / k->clock_hz;
        chain = per_warp * each;
        t->part[KTIME_LATENCY] = fmax(t->waves * per_warp, c->busiest_loads) * each;
    }
    t->wave_wait = chain;
}

/* The units a launch keeps busy overlap, but not perfectly where several
 * are busy most of the time: the SM's pipes (one issue slot for all of
 * them), the path to memory (L2 and DRAM serve the same requests), L1
 * and one address's atomics are taken as their Euclidean norm, and so
 * are a warp's dependent chain and its waits on loads (the loads feed
 * the chain). Never below the largest part, so never below the floor.
 * The exponent 2 and the grouping were chosen on the HeCBench fitting
 * half (benchmarks/HECBENCH.md: within 25% from 92 to 102 of 141 launches
 * with a predicted time, each half of it gaining); stop 62's 3-norm of
 * all the parts apart, pipes and DRAM and L2 counted twice, lost. */
static double combined(const double *part)
{
    double pipes = 0;
    for (int i = KTIME_FP16; i <= KTIME_ISSUE; i++)
        pipes = fmax(pipes, part[i]);
    double memory = fmax(part[KTIME_DRAM], part[KTIME_L2]);
    double units = sqrt(pipes * pipes + memory * memory + part[KTIME_L1] * part[KTIME_L1] +
                        part[KTIME_ATOMIC] * part[KTIME_ATOMIC]);
    double waits = hypot(part[KTIME_CHAIN], part[KTIME_LATENCY]);
    return fmax(fmax(units, waits), part[KTIME_DISPATCH]);
}

void ktime_predict(const ktime_counts *c, const ktime_consts *k, ktime *t)
{
    memset(t, 0, sizeof *t);
    if (c->blocks <= 0 || c->threads_per_block <= 0 || c->blocks_per_sm <= 0) {
        snprintf(t->why, sizeof t->why, "the launch does not fit on an SM, or has no threads");
        return;
    }
    parts(c, k, t);
    /* After the first wave (which the launch term counts) blocks take the
     * place of finished ones: short blocks as fast as the SM takes them. */
    double per_sm = ceil((double)c->blocks / k->sms);
    if (k->block_interval_s > 0 && per_sm > c->blocks_per_sm)
        t->part[KTIME_DISPATCH] =
            dispatch_time(per_sm, c->blocks_per_sm, k->block_interval_s,
                          k->block_serial_s - k->block_interval_s + t->wave_wait);
    t->limiter = KTIME_DRAM;
    for (int i = KTIME_DRAM; i < KTIME_PARTS; i++)
        if (t->part[i] > t->part[t->limiter])
            t->limiter = i;
    t->predicted = t->part[KTIME_LAUNCH] + combined(t->part);
    t->ok = true;
}
