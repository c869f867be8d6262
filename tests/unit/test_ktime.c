/* test_ktime: the time model's parts worked by hand for one launch (the
 * busiest SM's share of the per-SM units, DRAM over its bandwidth, the
 * latency of a warp's loads, the launch's fixed cost), the limiter, and the
 * refusals: a product without measured [timing], a launch that does not fit. */
#include <setjmp.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/timing/ktime.h"

static ktime_consts consts(void)
{
    ktime_consts k = {.sms = 132,
                      .clock_hz = 1.5e9,
                      .flops_per_clock_per_sm = {512, 256, 128, 4096},
                      .launch_s = 2e-6,
                      .dram_latency_s = 400e-9,
                      .dram_bandwidth = 2e12,
                      .l1_latency_cycles = 40};
    return k;
}

/* The same with a measured L2: 160 ns, 8 TB/s read, 4 TB/s written. */
static ktime_consts consts_with_l2(void)
{
    ktime_consts k = consts();
    k.has_l2 = true;
    k.l2_latency_s = 160e-9;
    k.l2_read_bandwidth = 8e12;
    k.l2_write_bandwidth = 4e12;
    return k;
}

static void test_parts_by_hand(void **state)
{
    (void)state;
    /* 264 blocks of 256 threads, 8 resident per SM: one wave, the busiest
     * SM runs 2 of the 264 blocks. */
    ktime_counts c = {.flops = {0, 1e9, 0, 0},
                      .dram_bytes = 1e9,
                      .dram_read_sectors = 42240,
                      .has_traffic = true,
                      .requests = {21120, 0, 0},
                      .units = {84480, 0, 0},
                      .blocks = 264,
                      .threads_per_block = 256,
                      .blocks_per_sm = 8};
    ktime_consts k = consts();
    ktime t;
    ktime_predict(&c, &k, &t);
    assert_true(t.ok);
    assert_float_equal(t.waves, 1, 0);
    assert_float_equal(t.part[KTIME_FP32], 1e9 * 2 / 264 / (256 * 1.5e9), 1e-15);
    /* 1 GB at 2 TB/s, after the first fetch's 400 ns. */
    assert_float_equal(t.part[KTIME_DRAM], 400e-9 + 5e-4, 1e-15);
    /* 21120 load requests and 84480 / 4 wavefronts: 21120 clocks in all. */
    assert_float_equal(t.part[KTIME_L1], 21120.0 * 2 / 264 / 1.5e9, 1e-15);
    /* 10 loads a warp, half of the sectors from DRAM (400 ns), half from
     * L1 (40 clocks). */
    assert_float_equal(t.part[KTIME_LATENCY], 10 * (0.5 * 400e-9 + 0.5 * 40 / 1.5e9), 1e-15);
    assert_int_equal(t.limiter, KTIME_DRAM);
    /* The busy units (FP32 pipes, DRAM, L1) join as a Euclidean norm,
     * longer than the load waits alone: 2 µs + 0.5118 ms. */
    double fp32 = 1e9 * 2 / 264 / (256 * 1.5e9), dram = 400e-9 + 5e-4,
           l1 = 21120.0 * 2 / 264 / 1.5e9;
    assert_float_equal(t.predicted, 2e-6 + sqrt(fp32 * fp32 + dram * dram + l1 * l1), 1e-15);
    assert_true(t.predicted > 2e-6 + dram && t.predicted < 2e-6 + dram + fp32 + l1);
    assert_string_equal(ktime_part_name(t.limiter), "dram");
}

/* The launch hands each SM its first wave's blocks one after another:
 * with 70 ns a block, the launch grows by 70 ns for every block an SM gets
 * in the first wave past its first, however many waves follow. */
static void test_first_wave_dispatch(void **state)
{
    (void)state;
    ktime_counts c = {.blocks = 1, .threads_per_block = 256, .blocks_per_sm = 8};
    ktime_consts k = consts();
    k.block_dispatch_s = 70e-9;
    ktime t;
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_LAUNCH], 2e-6, 1e-18);
    /* 132 blocks: one an SM. */
    c.blocks = 132;
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_LAUNCH], 2e-6, 1e-18);
    /* 400 blocks: up to 4 an SM (133 to 396 take a second and a third). */
    c.blocks = 400;
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_LAUNCH], 2e-6 + 3 * 70e-9, 1e-18);
    /* 100000 blocks: the first wave is 8 an SM (its occupancy). */
    c.blocks = 100000;
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_LAUNCH], 2e-6 + 7 * 70e-9, 1e-18);
    /* Without the measured rate, the empty kernel's launch alone. */
    k.block_dispatch_s = 0;
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_LAUNCH], 2e-6, 1e-18);
    /* No DRAM bytes, no DRAM part (nor its first fetch). */
    assert_float_equal(t.part[KTIME_DRAM], 0, 0);
}

static void test_latency_of_waves(void **state)
{
    (void)state;
    /* 10560 blocks of 128 threads, 16 per SM: 5 waves of 4 warps a block,
     * each warp 100 loads that all miss. */
    ktime_counts c = {.dram_bytes = 1e6,
                      .dram_read_sectors = 10560 * 4 * 100 * 4,
                      .has_traffic = true,
                      .requests = {10560 * 4 * 100, 0, 0},
                      .units = {10560 * 4 * 100 * 4, 0, 0},
                      .blocks = 10560,
                      .threads_per_block = 128,
                      .blocks_per_sm = 16};
    ktime_consts k = consts();
    ktime t;
    ktime_predict(&c, &k, &t);
    assert_true(t.ok);
    assert_float_equal(t.waves, 5, 0);
    assert_float_equal(t.part[KTIME_LATENCY], 5 * 100 * 400e-9, 1e-12);
    assert_int_equal(t.limiter, KTIME_LATENCY);
}

static void test_l2_and_lines(void **state)
{
    (void)state;
    /* One wave of 264 blocks of 256 threads, 8 warps a block: each warp 8
     * uncoalesced loads (32 lines, 32 sectors each) and 8 stores of 4
     * sectors. Of the 540672 load sectors DRAM reads 1/8 and L2 serves
     * another 1/8. */
    double warps = 264 * 8, loads = warps * 8;
    ktime_counts c = {.dram_bytes = 32 * loads * 32 / 8,
                      .dram_read_sectors = loads * 32 / 8,
                      .has_traffic = true,
                      .requests = {loads, loads, 0},
                      .units = {loads * 32, loads * 4, 0},
                      .lines = {loads * 32, loads, 0},
                      .has_l2 = true,
                      .l2_read_sectors = loads * 32 / 4,
                      .l2_write_sectors = loads * 4,
                      .blocks = 264,
                      .threads_per_block = 256,
                      .blocks_per_sm = 8};
    ktime_consts k = consts_with_l2();
    ktime t;
    ktime_predict(&c, &k, &t);
    assert_true(t.ok);
    assert_float_equal(t.part[KTIME_L2], 32 * loads * 8 / 8e12 + 32 * loads * 4 / 4e12, 1e-15);
    /* L1: 32 wavefronts a load (its lines, not its 32 / 4 sectors), the
     * busiest SM's 2 blocks of 264. */
    assert_float_equal(t.part[KTIME_L1], loads * 32 * 2 / 264 / 1.5e9, 1e-15);
    double each = 0.125 * 400e-9 + 0.125 * 160e-9 + 0.75 * 40 / 1.5e9;
    assert_float_equal(t.part[KTIME_LATENCY], 8 * each, 1e-15);
    assert_int_equal(t.limiter, KTIME_L1);
    /* With the requests' wavefronts known (lines 132 bytes apart: each
     * word in a bank of its own, four lines a clock), L1 takes those, at
     * least the sectors / 4. */
    c.wavefronts[TRAFFIC_LOAD] = loads * 8;
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_L1], loads * 8 * 2 / 264 / 1.5e9, 1e-15);
    c.wavefronts[TRAFFIC_LOAD] = loads * 2;
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_L1], loads * 8 * 2 / 264 / 1.5e9, 1e-15);
    c.wavefronts[TRAFFIC_LOAD] = 0;
    assert_string_equal(ktime_part_name(KTIME_L2), "l2");
    /* Where half of the store sectors are written in part and the product
     * has a rate for those, they take it. */
    c.l2_partial_write_sectors = loads * 4 / 2;
    k.l2_partial_write_bandwidth = 1.5e12;
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_L2],
                       32 * loads * 8 / 8e12 + 32 * loads * 2 / 4e12 + 32 * loads * 2 / 1.5e12,
                       1e-15);
    /* A quarter of them beside others of their line, at that rate. */
    c.l2_shared_partial_write_sectors = loads;
    k.l2_shared_partial_write_bandwidth = 3.5e12;
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_L2],
                       32 * loads * 8 / 8e12 + 32 * loads / 4e12 + 32 * loads * 2 / 1.5e12 +
                           32 * loads / 3.5e12,
                       1e-15);
    /* Never more of them than the writes not already partial alone. */
    c.l2_shared_partial_write_sectors = loads * 10;
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_L2],
                       32 * loads * 8 / 8e12 + 32 * loads * 2 / 1.5e12 + 32 * loads * 2 / 3.5e12,
                       1e-15);
    /* Without the product's L2 constants the part is left out and L1
     * misses are L1 hits. */
    k.has_l2 = false;
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_L2], 0, 0);
    assert_float_equal(t.part[KTIME_LATENCY], 8 * (0.125 * 400e-9 + 0.875 * 40 / 1.5e9), 1e-15);
}

/* DRAM keeps its rate on whole lines and falls with the share of its
 * lines a request's runs fill: half lines take twice as long, a lone
 * sector a line four times, never worse. */
static void test_line_fill(void **state)
{
    (void)state;
    double loads = 1e6;
    ktime_counts c = {.dram_bytes = 32 * loads * 8,
                      .dram_read_sectors = loads * 8,
                      .has_traffic = true,
                      .requests = {loads, 0, 0},
                      .units = {loads * 8, 0, 0},
                      .lines = {loads * 4, 0, 0},
                      .run_sectors = {loads * 16, 0, 0},
                      .blocks = 264,
                      .threads_per_block = 256,
                      .blocks_per_sm = 8};
    ktime_consts k = consts();
    ktime t;
    ktime_predict(&c, &k, &t);
    assert_true(t.ok);
    assert_float_equal(t.part[KTIME_DRAM], 400e-9 + 32 * loads * 8 / (2e12 * 0.5), 1e-15);
    c.run_sectors[TRAFFIC_LOAD] = loads * 8; /* whole lines, as when not known */
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_DRAM], 400e-9 + 32 * loads * 8 / 2e12, 1e-15);
    c.run_sectors[TRAFFIC_LOAD] = 0;
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_DRAM], 400e-9 + 32 * loads * 8 / 2e12, 1e-15);
    c.run_sectors[TRAFFIC_LOAD] = loads * 8 * 16; /* past a sector a line */
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_DRAM], 400e-9 + 32 * loads * 8 / (2e12 * 0.25), 1e-15);
}

/* Loads placed in phases (analysis/timing/loadlat): a phase lasts as long as its
 * slowest load; phases add. Two waves of 1056 blocks of 256 threads.
 * Phase 0: a load every warp makes 100 times, each a fetch of a sector the
 * grid touches first (DRAM), beside one it makes 100 times from L1; phase
 * 1: 50 requests a warp, half of them fetches, a tenth of those first
 * touches, but with two waves half of the blocks' fetches are the first
 * wave's (DRAM) and half the second's (L2). */
static void test_phases(void **state)
{
    (void)state;
    double warps = 2112 * 8;
    ktime_load loads[3] = {
        {.phase = 0, .requests = 100 * warps, .new_share = 1, .first_share = 1},
        {.phase = 0, .requests = 100 * warps, .new_share = 0, .first_share = 1},
        {.phase = 1, .requests = 50 * warps, .new_share = 0.5, .first_share = 0.1},
    };
    ktime_counts c = {.dram_bytes = 1e6,
                      .dram_read_sectors = 100 * warps * 4,
                      .has_traffic = true,
                      .requests = {250 * warps, 0, 0},
                      .units = {1000 * warps, 0, 0},
                      .has_l2 = true,
                      .blocks = 2112,
                      .threads_per_block = 256,
                      .blocks_per_sm = 8,
                      .loads = loads,
                      .n_loads = 3};
    ktime_consts k = consts_with_l2();
    ktime t;
    ktime_predict(&c, &k, &t);
    assert_true(t.ok);
    assert_float_equal(t.waves, 2, 0);
    double l1 = 40 / 1.5e9, past = 0.5 * 400e-9 + 0.5 * 160e-9;
    assert_float_equal(t.part[KTIME_LATENCY], 2 * (100 * 400e-9 + 50 * (0.5 * past + 0.5 * l1)),
                       1e-15);
    /* Without the product's L2 constants only the DRAM share leaves L1. */
    k.has_l2 = false;
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_LATENCY], 2 * (100 * 400e-9 + 50 * (0.25 * 400e-9 + 0.75 * l1)),
                       1e-15);
    /* Where an earlier statement of the block touched 3/4 of the first
     * phase's sectors, those come from L2, the rest from DRAM as before. */
    k.has_l2 = true;
    loads[0].seen_share = 0.75;
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_LATENCY],
                       2 * (100 * (0.25 * 400e-9 + 0.75 * 160e-9) + 50 * (0.5 * past + 0.5 * l1)),
                       1e-15);
    /* Its 100 requests a warp issued 4 at a time (an unrolled loop's). */
    loads[0].together = 4;
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_LATENCY],
                       2 * (25 * (0.25 * 400e-9 + 0.75 * 160e-9) + 50 * (0.5 * past + 0.5 * l1)),
                       1e-15);
}

/* A launch of blocks of 256 threads, 8 an SM, whose one load (every
 * sector DRAM's) is `load`. */
static ktime_counts one_load(const ktime_load *load, int64_t blocks, double sectors)
{
    ktime_counts c = {.dram_bytes = 1e4,
                      .dram_read_sectors = sectors,
                      .has_traffic = true,
                      .requests = {load->requests, 0, 0},
                      .units = {sectors, 0, 0},
                      .blocks = blocks,
                      .threads_per_block = 256,
                      .blocks_per_sm = 8,
                      .loads = load,
                      .n_loads = 1};
    return c;
}

/* A launch lasts at least as long as its busiest warp waits: one block of
 * 8 warps (one wave) whose load only warp 0 makes, 2048 times (polybench
 * gramschmidt_kernel1's `if (tid == 0)` loop): the mean warp's 256
 * requests would say an eighth of it. Four copies of the load in one pass
 * of the loop (nvcc's unrolling) wait together. Where the loads are not
 * placed, the busiest warp's requests over all load sites stand in. With
 * more waves than the busiest warp's share, the waves of mean warps rule. */
static void test_busiest_warp(void **state)
{
    (void)state;
    ktime_load load = {
        .phase = 0, .requests = 2048, .new_share = 1, .first_share = 1, .busiest = 2048};
    ktime_counts c = one_load(&load, 1, 2048);
    ktime_consts k = consts();
    ktime t;
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_LATENCY], 2048 * 400e-9, 1e-15);
    load.together = 4;
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_LATENCY], 512 * 400e-9, 1e-15);
    load.busiest = 0; /* not known: the mean warp */
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_LATENCY], 64 * 400e-9, 1e-15);
    c.loads = NULL;
    c.n_loads = 0;
    c.busiest_loads = 2048;
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_LATENCY], 2048 * 400e-9, 1e-15);
    /* 2112 blocks, 2 waves of 8 warps each making 10 requests, warp 0 of
     * one block 15: two waves of 10 outlast one warp of 15. */
    ktime_load even = {
        .phase = 0, .requests = 2112 * 8 * 10 + 5, .new_share = 1, .first_share = 1, .busiest = 15};
    c = one_load(&even, 2112, even.requests);
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.waves, 2, 0);
    assert_float_equal(t.part[KTIME_LATENCY], 2 * even.requests / (2112 * 8) * 400e-9, 1e-15);
}

/* L1 returns a line a clock, the SM's resident warps' requests in turn: a
 * request of 32 lines (a column read, one lane a line) by each of 8 warps
 * (one block of 256 an SM) is done 8 x 32 clocks after the first line
 * goes, besides its latency; four such requests in flight together share
 * one latency and still queue all their lines (cuda-samples'
 * mergeHistogram64Kernel: 18 requests a warp, four a pass). */
static void test_l1_queue(void **state)
{
    (void)state;
    double warps = 132 * 8, lines = 32;
    ktime_load load = {.phase = 0,
                       .requests = 18 * warps,
                       .new_share = 1,
                       .first_share = 1,
                       .lines = 18 * warps * lines};
    ktime_counts c = one_load(&load, 132, 18 * warps * lines);
    ktime_consts k = consts();
    ktime t;
    ktime_predict(&c, &k, &t);
    double queue = 8 * lines / 1.5e9;
    assert_float_equal(t.part[KTIME_LATENCY], 18 * (400e-9 + queue), 1e-15);
    load.together = 4;
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_LATENCY], 18 * (400e-9 / 4 + queue), 1e-15);
    /* Two blocks an SM: sixteen warps' lines ahead. */
    c.blocks = 264;
    load.requests *= 2;
    load.lines *= 2;
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_LATENCY], 18 * (400e-9 / 4 + 2 * queue), 1e-15);
}

/* The issue term: reduce0's count (131,203,072 warp instructions, 65,536
 * blocks of 256 threads, 8 resident per SM) at four a clock for the
 * busiest SM, which runs 497 of the blocks. Issue-bound, its warps also
 * wait once a wave for their first load (63 waves of one DRAM fetch); a
 * launch whose latency is longer than its issue is not issue-bound, and
 * its issue term is the instructions alone. */
static void test_issue(void **state)
{
    (void)state;
    double warps = 65536.0 * 8;
    ktime_load load = {.phase = 0, .requests = warps, .new_share = 1, .first_share = 1};
    ktime_counts c = {.has_traffic = true,
                      .requests = {warps, 0, 0},
                      .units = {4 * warps, 0, 0},
                      .blocks = 65536,
                      .threads_per_block = 256,
                      .blocks_per_sm = 8,
                      .loads = &load,
                      .n_loads = 1,
                      .warp_insts = 131203072};
    ktime_consts k = consts();
    k.issue_per_clock_per_sm = 4;
    ktime t;
    ktime_predict(&c, &k, &t);
    assert_true(t.ok);
    assert_float_equal(t.waves, 63, 0); /* 65536 / (132 x 8), rounded up */
    double issue = 131203072.0 * 497 / 65536 / (4 * 1.5e9);
    assert_float_equal(t.part[KTIME_LATENCY], 63 * 400e-9, 1e-15);
    assert_float_equal(t.part[KTIME_ISSUE], issue + 63 * 400e-9, 1e-15);
    assert_int_equal(t.limiter, KTIME_ISSUE);
    /* A first phase in a loop of ten requests a warp waits one fetch a
     * wave, not ten: later iterations' waits overlap other warps' issue. */
    load.requests = 10 * warps;
    c.warp_insts = 1e9;
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_LATENCY], 63 * 10 * 400e-9, 1e-15);
    assert_float_equal(t.part[KTIME_ISSUE], 1e9 * 497 / 65536 / (4 * 1.5e9) + 63 * 400e-9, 1e-15);
    load.requests = warps;
    c.warp_insts = 1e6;
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_ISSUE], 1e6 * 497 / 65536 / (4 * 1.5e9), 1e-15);
    assert_int_equal(t.limiter, KTIME_LATENCY);
    /* Half of them on the ALU pipe, which takes one every second clock: a
     * scheduler's clocks a warp instruction are 1 + 0.5^2 (pipes.h). */
    k.pipe_clocks[PIPES_ALU] = 2;
    c.pipe_insts[PIPES_ALU] = c.pipe_insts[PIPES_OTHER] = 0.5e6;
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_ISSUE], 1.25 * 1e6 * 497 / 65536 / (4 * 1.5e9), 1e-15);
}

/* A tree reduction's loop under __syncthreads: 9 iterations the block's
 * 16 warps go through together. Its load averages 1.25 requests a warp
 * (most warps leave after the first steps), but every iteration waits
 * for the slowest warp, the barrier (77 clocks, or 1.97 a resident warp:
 * 4 blocks of 16 here) and the lines the SM's warps ask for, a clock each;
 * 8 of the 9 read what another warp stored, from L1. Without a barrier
 * the average stands. */
static void test_lockstep(void **state)
{
    (void)state;
    double warps = 131072.0 * 16;
    ktime_load load = {.phase = 0,
                       .requests = 1.25 * warps,
                       .new_share = 0.8,
                       .first_share = 1,
                       .lockstep = 9,
                       .restored_share = 8.0 / 9,
                       .lines = 4 * 1.25 * warps};
    ktime_counts c = {.has_traffic = true,
                      .requests = {1.25 * warps, 0, 0},
                      .units = {5 * warps, 0, 0},
                      .has_l2 = true,
                      .blocks = 131072,
                      .threads_per_block = 512,
                      .blocks_per_sm = 4,
                      .loads = &load,
                      .n_loads = 1};
    ktime_consts k = consts_with_l2();
    k.barrier_cycles = 77;
    k.barrier_warp_cycles = 1.97;
    ktime t;
    ktime_predict(&c, &k, &t);
    assert_true(t.ok);
    assert_float_equal(t.waves, 249, 0); /* 131072 / (132 x 4), rounded up */
    double l1 = 40 / 1.5e9, each = 0.8 * 400e-9 + 0.2 * l1;
    double barrier = 64 * 1.97 / 1.5e9;       /* 64 resident warps: above 77 clocks */
    double lines = 4 * 1.25 / 9 * 64 / 1.5e9; /* a warp's lines an iteration, 64 warps */
    double step = 8.0 / 9 * l1 + 1.0 / 9 * each + barrier + lines;
    assert_float_equal(t.part[KTIME_LATENCY], 249 * 9 * step, 1e-15);
    c.blocks_per_sm = 1; /* 16 warps: the barrier alone */
    ktime_predict(&c, &k, &t);
    step = 8.0 / 9 * l1 + 1.0 / 9 * each + 77 / 1.5e9 + 4 * 1.25 / 9 * 16 / 1.5e9;
    assert_float_equal(t.part[KTIME_LATENCY], 993 * 9 * step, 1e-15);
    load.lockstep = 0;
    c.blocks_per_sm = 4;
    ktime_predict(&c, &k, &t);
    /* each request also queues behind the same request's 4 lines of the
     * SM's other 63 warps (L1's queue) */
    assert_float_equal(t.part[KTIME_LATENCY], 249 * 1.25 * (each + 4 * 64 / 1.5e9), 1e-15);
}

/* Handing out short blocks: the dispatcher a queue of 80 ns a block, the
 * rest of an empty block's 152 ns a delay. One block an SM: each takes the
 * whole 152 ns; two: Mean Value Analysis by hand; eight: close to the
 * dispatcher's own rate, never faster. Nothing without the constants or
 * within the first wave. */
static void test_dispatch(void **state)
{
    (void)state;
    ktime_counts c = {.blocks = 262144, .threads_per_block = 256, .blocks_per_sm = 1};
    ktime_consts k = consts();
    k.block_interval_s = 80e-9;
    k.block_serial_s = 152e-9;
    ktime t;
    ktime_predict(&c, &k, &t);
    double per_sm = 1986; /* 262144 / 132, rounded up */
    assert_float_equal(t.part[KTIME_DISPATCH], per_sm * 152e-9, 1e-15);
    assert_int_equal(t.limiter, KTIME_DISPATCH);
    c.blocks_per_sm = 2;
    ktime_predict(&c, &k, &t);
    double queued = 80.0 / 152, response = 80e-9 * (1 + queued);
    assert_float_equal(t.part[KTIME_DISPATCH], per_sm * (response + 72e-9) / 2, 1e-15);
    c.blocks_per_sm = 8;
    ktime_predict(&c, &k, &t);
    assert_true(t.part[KTIME_DISPATCH] >= per_sm * 80e-9);
    assert_true(t.part[KTIME_DISPATCH] < per_sm * 80e-9 * 1.05);
    c.blocks = 132 * 8; /* one wave: the launch term's */
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_DISPATCH], 0, 0);
    c.blocks = 262144;
    k.block_interval_s = 0;
    ktime_predict(&c, &k, &t);
    assert_float_equal(t.part[KTIME_DISPATCH], 0, 0);
}

/* The latencies measured at Nsight Compute's locked clock (1590 MHz) and
 * at the boost clock (1980 MHz): each as it is at those clocks, between
 * them fixed + cycles / clock, and no further than the boost clock. */
static void test_latency_at_clock(void **state)
{
    (void)state;
    gpu_product p;
    memset(&p, 0, sizeof p);
    strcpy(p.id, "h");
    p.sm_count = 132;
    p.launch_ns = 2000;
    p.dram_latency_ns = 372;
    p.dram_read_bandwidth = 2.6e12;
    p.l1_latency_cycles = 40;
    p.l2_latency_ns = 160;
    p.l2_read_bandwidth = 7e12;
    p.l2_write_bandwidth = 4e12;
    p.boost_clock_mhz = 1980;
    p.latency_clock_mhz = 1590;
    p.boost_dram_latency_ns = 355;
    p.boost_l2_latency_ns = 142;
    ktime_consts k;
    char why[160];
    assert_true(ktime_consts_of(&p, 1590e6, &k, why, sizeof why));
    assert_float_equal(k.l2_latency_s, 160e-9, 1e-18);
    assert_float_equal(k.dram_latency_s, 372e-9, 1e-18);
    assert_true(ktime_consts_of(&p, 1980e6, &k, why, sizeof why));
    assert_float_equal(k.l2_latency_s, 142e-9, 1e-18);
    assert_float_equal(k.dram_latency_s, 355e-9, 1e-18);
    /* 18 ns between 1/1590 and 1/1980 of a microsecond: 145.2 cycles. */
    double cycles = 18 / (1e3 / 1590 - 1e3 / 1980);
    assert_true(ktime_consts_of(&p, 1755e6, &k, why, sizeof why));
    assert_float_equal(k.l2_latency_s, (160 - cycles * 1e3 / 1590 + cycles * 1e3 / 1755) * 1e-9,
                       1e-18);
    assert_true(ktime_consts_of(&p, 2500e6, &k, why, sizeof why));
    assert_float_equal(k.l2_latency_s, 142e-9, 1e-18);
    p.latency_clock_mhz = 0;
    assert_true(ktime_consts_of(&p, 1980e6, &k, why, sizeof why));
    assert_float_equal(k.l2_latency_s, 160e-9, 1e-18);
}

static void test_refusals(void **state)
{
    (void)state;
    gpu_product p;
    memset(&p, 0, sizeof p);
    strcpy(p.id, "t4");
    p.sm_count = 40;
    ktime_consts k;
    char why[160];
    assert_false(ktime_consts_of(&p, 1.5e9, &k, why, sizeof why));
    assert_non_null(strstr(why, "t4 has no measured [timing]"));
    p.launch_ns = 2000;
    p.dram_latency_ns = 400;
    p.dram_read_bandwidth = 3e11;
    p.l1_latency_cycles = 40;
    p.flops_per_clock_per_sm[PREC_FP32] = 128;
    assert_true(ktime_consts_of(&p, 1.5e9, &k, why, sizeof why));
    assert_float_equal(k.flops_per_clock_per_sm[1], 128, 0);
    assert_float_equal(k.launch_s, 2e-6, 1e-18);
    assert_float_equal(k.block_dispatch_s, 0, 0); /* optional: not measured */
    /* The pipes slower than issue: Volta to Hopper only; FP64 from the
     * product's rate (an H200's 64 DFMA a clock an SM, an RTX 4090's 2). */
    for (int q = 0; q < PIPES_N; q++)
        assert_float_equal(k.pipe_clocks[q], 0, 0);
    strcpy(p.arch, "sm_90");
    p.flops_per_clock_per_sm[PREC_FP64] = 128;
    assert_true(ktime_consts_of(&p, 1.5e9, &k, why, sizeof why));
    assert_float_equal(k.pipe_clocks[PIPES_ALU], 2, 0);
    assert_float_equal(k.pipe_clocks[PIPES_FMA_HEAVY], 2, 0);
    assert_float_equal(k.pipe_clocks[PIPES_XU], 8, 0);
    assert_float_equal(k.pipe_clocks[PIPES_FP64], 2, 0);
    assert_float_equal(k.pipe_clocks[PIPES_OTHER], 0, 0);
    strcpy(p.arch, "sm_89");
    p.flops_per_clock_per_sm[PREC_FP64] = 4;
    assert_true(ktime_consts_of(&p, 1.5e9, &k, why, sizeof why));
    assert_float_equal(k.pipe_clocks[PIPES_FP64], 64, 0);
    strcpy(p.arch, "sm_61");
    assert_true(ktime_consts_of(&p, 1.5e9, &k, why, sizeof why));
    assert_float_equal(k.pipe_clocks[PIPES_ALU], 0, 0);
    p.block_dispatch_ns = 68;
    assert_true(ktime_consts_of(&p, 1.5e9, &k, why, sizeof why));
    assert_float_equal(k.block_dispatch_s, 68e-9, 1e-18);
    p.block_interval_ns = 80;
    p.block_serial_ns = 152;
    p.barrier_cycles = 77;
    assert_true(ktime_consts_of(&p, 1.5e9, &k, why, sizeof why));
    assert_float_equal(k.block_interval_s, 80e-9, 1e-18);
    assert_float_equal(k.block_serial_s, 152e-9, 1e-18);
    assert_float_equal(k.barrier_cycles, 77, 0);
    p.block_serial_ns = 60; /* shorter than the interval: not a measurement to use */
    assert_true(ktime_consts_of(&p, 1.5e9, &k, why, sizeof why));
    assert_float_equal(k.block_interval_s, 0, 0);
    ktime_counts c = {.blocks = 10, .threads_per_block = 2048, .blocks_per_sm = 0};
    ktime t;
    ktime_predict(&c, &k, &t);
    assert_false(t.ok);
    assert_non_null(strstr(t.why, "does not fit"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parts_by_hand),
        cmocka_unit_test(test_first_wave_dispatch),
        cmocka_unit_test(test_latency_of_waves),
        cmocka_unit_test(test_l2_and_lines),
        cmocka_unit_test(test_line_fill),
        cmocka_unit_test(test_phases),
        cmocka_unit_test(test_busiest_warp),
        cmocka_unit_test(test_l1_queue),
        cmocka_unit_test(test_issue),
        cmocka_unit_test(test_lockstep),
        cmocka_unit_test(test_latency_at_clock),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_dispatch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
