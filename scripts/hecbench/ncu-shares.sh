#!/bin/bash
# ncu-shares.sh: on the GPU machine, every launch of a whole run of each
# HeCBench program in DIR, timed by Nsight Compute: where the program's
# GPU time goes, for gpulint's --entry main shares (tests/program_shares.py).
#
#   OUT=... bash scripts/hecbench/ncu-shares.sh DIR [BUDGET_S]
#
# DIR holds progs.txt (lines "name<TAB>args") and NAME/main, built by the
# program's own Makefile (scripts/hecbench: sm_90, -lineinfo). Each program
# runs from its own directory with its Makefile's `run` arguments; one
# metric, gpu__time_duration.sum, so each launch is profiled in one pass.
# Clocks are the card's (--clock-control none, the workplace's rule) and
# caches are not flushed (--cache-control none): the launches run as in a
# plain run, one after another. A program is stopped after PROG_TIMEOUT
# seconds (default 150) and its file marked cut; no program starts after
# BUDGET_S seconds (default 420). Writes $OUT/NAME.csv and $OUT/run.log.
set -u
DIR=$(cd "$1" && pwd)
BUDGET=${2:-420}
: "${OUT:?set OUT}"
PROG_TIMEOUT=${PROG_TIMEOUT:-150}
T0=$(date +%s)
{
  echo "### env"; date -u; nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm,clocks.max.mem --format=csv
  ncu --version | tail -1
} >> "$OUT/run.log" 2>&1
while IFS=$'\t' read -r name args; do
  [ -n "$name" ] || continue
  if [ $(( $(date +%s) - T0 )) -gt "$BUDGET" ]; then
    echo "### $name: not started (budget)" >> "$OUT/run.log"; continue
  fi
  t=$(date +%s)
  # shellcheck disable=SC2086 # the arguments are the Makefile's words
  (cd "$DIR/$name" && timeout "$PROG_TIMEOUT" ncu --clock-control none --cache-control none \
      --kernel-name-base mangled --metrics gpu__time_duration.sum --csv --page raw \
      --log-file "$OUT/$name.csv" ./main $args > "$OUT/$name.out" 2>&1)
  rc=$?
  [ "$rc" = 124 ] && echo "### cut: stopped after $PROG_TIMEOUT s" >> "$OUT/$name.csv"
  echo "### $name: rc $rc, $(( $(date +%s) - t )) s, $(grep -c '^"[0-9]' "$OUT/$name.csv" 2>/dev/null) launches" >> "$OUT/run.log"
  tail -3 "$OUT/$name.out" >> "$OUT/run.log"
done < "$DIR/progs.txt"
