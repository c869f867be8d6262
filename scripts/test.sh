#!/usr/bin/env bash
# test.sh: install what is needed, build gpulint and run every test.
#
#   bash scripts/test.sh
#
# Stages (each runs even when an earlier one failed; the exit status is 1 if
# any failed):
#   1. build-test/   default build (gcc), `meson test` of every suite: unit
#                    (cmocka; includes the full cuda_occupancy.h sweep), cli
#                    (tests/cli/*.test golden cases), gpu (skipped without a
#                    GPU: the test prints "skipped: no GPU" and exits 77).
#   1b. build-release-gcc/, build-release-clang/   --buildtype=release (-O3)
#                    with gcc and with clang-22, warnings as errors; the
#                    unit suite of each.
#   2. build-asan/   gcc with -fsanitize=address,undefined: the unit and cli
#                    suites, GPULINT_SWEEP=quick (a strided occupancy sweep;
#                    the truth set without its programs marked heavy; a
#                    twelfth of the HeCBench programs and half of the whole
#                    runs, each row checked against benchmarks/HECBENCH.md).
#   3. build-fuzz/   clang-22 with -Dfuzz=true: each libFuzzer target in
#                    tests/fuzz for GPULINT_FUZZ_SECONDS (default 20) over
#                    a copy of its seed corpus tests/fuzz/corpus/<name>.
#   4. valgrind      the unit suite of build-test under memcheck (quick
#                    sweep), and gpulint itself on a few commands.
# The last line is the total: "total: N passed, N failed, N skipped".
#
# Environment: GPULINT_FUZZ_SECONDS, GPULINT_TEST_STAGES (a subset of
# "build release asan fuzz valgrind", default all), GPULINT_SKIP_SETUP=1 (do not run
# scripts/setup.sh).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
FUZZ_SECONDS=${GPULINT_FUZZ_SECONDS:-20}
STAGES=" ${GPULINT_TEST_STAGES:-build release asan fuzz valgrind} "
SUMMARY=$(mktemp)
trap 'rm -f "$SUMMARY"' EXIT

# nvcc on PATH: the gpu suite is compiled by meson's CUDA support, and the cli
# cases compile .cu files.
for d in "${CUDA_HOME:-}" /usr/local/cuda; do
  if [ -n "$d" ] && [ -x "$d/bin/nvcc" ]; then
    export PATH="$d/bin:$PATH"
    break
  fi
done

T0=$(date +%s)
banner() { printf '\n===== %s (at %d s) =====\n' "$*" $(($(date +%s) - T0)); }
stage_ok() { printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$SUMMARY"; }

# Meson options that exist in this tree (options are added as features land).
has_option() { grep -q "option('$1'" meson_options.txt; }

# Counts of a `meson test` run from its JSON log; the cli test counts as its
# cases (its "N passed, N failed[, N skipped]" line).
count_meson() { # name logfile rc
  python3 - "$1" "$2" "$3" >>"$SUMMARY" <<'EOF'
import glob, json, re, sys
name, log, rc = sys.argv[1], sys.argv[2], int(sys.argv[3])
p = f = s = 0
logs = sorted(glob.glob(log))  # meson appends the wrapper's name with --wrap
try:
    with open(logs[0] if logs else log) as fh:
        for line in fh:
            t = json.loads(line)
            res = t.get("result")
            m = re.findall(r"^(?:\w+: )?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$",
                           t.get("stdout") or "", re.M)
            if t.get("name", "").split(" / ")[-1] == "cli" and m:
                p += int(m[-1][0]); f += int(m[-1][1]); s += int(m[-1][2] or 0)
                if res != "OK" and int(m[-1][1]) == 0:
                    f += 1
            elif res in ("OK", "EXPECTEDFAIL"):
                p += 1
            elif res == "SKIP":
                s += 1
            else:
                f += 1
except FileNotFoundError:
    pass
if rc != 0 and f == 0:
    f = 1  # meson itself failed (build error, no log)
print(f"{name}\t{p}\t{f}\t{s}\t{'ok' if rc == 0 and f == 0 else 'FAILED'}")
EOF
}

# The gpu suite's skip message, shown where a reader of the CI log sees it.
show_skips() { # logfile
  python3 - "$1" <<'EOF'
import json, sys
try:
    for line in open(sys.argv[1]):
        t = json.loads(line)
        if t.get("result") == "SKIP":
            msg = (t.get("stdout") or "").strip().splitlines()
            print(f"SKIP {t.get('name')}: {msg[-1] if msg else '(no message)'}")
except FileNotFoundError:
    pass
EOF
}

setup_build() { # dir, meson args...
  local dir=$1
  shift
  if [ -f "$dir/build.ninja" ]; then
    meson setup --reconfigure "$dir" "$@"
  else
    meson setup "$dir" "$@"
  fi
}

if [ "${GPULINT_SKIP_SETUP:-0}" != 1 ]; then
  banner "setup"
  bash scripts/setup.sh
fi

START=$(date +%s)

# ---------------------------------------------------------------- 1. build
if [[ $STAGES == *" build "* ]]; then
  banner "1. build-test: gcc, all suites"
  rc=0
  # Warnings are errors in every build this script makes (meson.build leaves
  # werror off for users' builds).
  if setup_build build-test -Dwerror=true && meson compile -C build-test; then
    rm -f build-test/meson-logs/all.*
    meson test -C build-test --print-errorlogs --logbase all || rc=$?
    show_skips build-test/meson-logs/all.json
  else
    rc=1
  fi
  count_meson "build-test (all suites)" build-test/meson-logs/all.json "$rc"
fi

# ---------------------------------------------------------------- 1b. release
# What a packager builds: -O3 warns where -O2 does not (format truncation
# that only inlining reveals), with gcc and with clang.
if [[ $STAGES == *" release "* ]]; then
  # Both -O3 builds run the unit suite: the goldens' gpulint runs are what
  # takes the time, and build-test's and the sanitizers' runs of them stay
  # (CI's 90 minutes held 83 with clang's run of them too).
  for cc in gcc clang-22; do
    dir=build-release-${cc%%-*}
    suite=unit
    banner "1b. $dir: $cc, --buildtype=release, warnings as errors, $suite suite"
    rc=0
    if CC=$cc setup_build "$dir" --buildtype=release -Dwerror=true && meson compile -C "$dir"; then
      rm -f "$dir"/meson-logs/release.*
      meson test -C "$dir" --suite "$suite" --print-errorlogs --logbase release || rc=$?
    else
      rc=1
    fi
    count_meson "$dir ($suite)" "$dir/meson-logs/release.json" "$rc"
  done
fi

# ---------------------------------------------------------------- 2. asan
if [[ $STAGES == *" asan "* ]]; then
  banner "2. build-asan: ASan+UBSan, unit and cli suites (GPULINT_SWEEP=quick)"
  # -O1, as the sanitizers' own documentation advises: half the time of -O0
  # here (the footprint bitsets and the lane analyses dominate), and a leak
  # that -O0 hides by keeping a dead pointer on the stack is found.
  opts=(-Db_sanitize=address,undefined -Db_lundef=false -Doptimization=1 -Ddebug=true)
  if has_option gpu_tests; then opts+=(-Dgpu_tests=disabled); fi
  rc=0
  # -Dwerror=false: gcc warns differently at -O0 with sanitizers; warnings
  # are enforced by the build-test stage.
  opts+=(-Dwerror=false)
  if setup_build build-asan "${opts[@]}" && meson compile -C build-asan; then
    rm -f build-asan/meson-logs/sanitize.*
    GPULINT_SWEEP=quick \
      ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1:print_summary=1 \
      LSAN_OPTIONS="suppressions=$ROOT/scripts/lsan.supp:print_suppressions=0" \
      UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:print_summary=1 \
      meson test -C build-asan --suite unit --suite cli --print-errorlogs --logbase sanitize \
      --timeout-multiplier 3 || rc=$?
  else
    rc=1
  fi
  count_meson "build-asan (unit, cli)" build-asan/meson-logs/sanitize.json "$rc"
fi

# ---------------------------------------------------------------- 3. fuzz
if [[ $STAGES == *" fuzz "* ]]; then
  banner "3. build-fuzz: libFuzzer targets, ${FUZZ_SECONDS} s each"
  fp=0
  ff=0
  opts=(-Dfuzz=true -Dtests=disabled -Dlibclang=disabled -Dcharts=disabled -Dcudart=disabled
    -Dwerror=true)
  if has_option gpu_tests; then opts+=(-Dgpu_tests=disabled); fi
  if CC=clang-22 setup_build build-fuzz "${opts[@]}"; then
    mapfile -t targets < <(meson introspect --targets build-fuzz | python3 -c '
import json, os, sys
for t in json.load(sys.stdin):
    if t["name"].startswith("fuzz_") and t["type"] == "executable":
        print(os.path.relpath(t["filename"][0], "build-fuzz"))')
    if [ ${#targets[@]} -eq 0 ]; then
      echo "no fuzz targets found"
      ff=1
    elif ! ninja -C build-fuzz "${targets[@]}"; then
      ff=${#targets[@]}
    else
      for exe in "${targets[@]}"; do
        name=$(basename "$exe")
        exe=build-fuzz/$exe
        seeds=tests/fuzz/corpus/${name#fuzz_}
        work=build-fuzz/corpus/${name#fuzz_}
        mkdir -p "$work" build-fuzz/artifacts
        [ -d "$seeds" ] || seeds=
        echo "--- $name (seed corpus: ${seeds:-none})"
        if "$exe" -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 \
            -print_final_stats=1 -artifact_prefix="build-fuzz/artifacts/$name-" \
            "$work" ${seeds:+"$seeds"} >"build-fuzz/$name.log" 2>&1; then
          fp=$((fp + 1))
          echo "ok   $name: $(grep -E '^stat::number_of_executed_units' "build-fuzz/$name.log" |
            awk '{print $2}') inputs, $(grep -E '^stat::new_units_added' "build-fuzz/$name.log" |
            awk '{print $2}') new, no crash"
        else
          ff=$((ff + 1))
          echo "FAIL $name: see build-fuzz/$name.log; the input is in build-fuzz/artifacts/"
          tail -40 "build-fuzz/$name.log"
        fi
      done
    fi
  else
    ff=1
  fi
  stage_ok "build-fuzz (libFuzzer)" "$fp" "$ff" 0 "$([ "$ff" -eq 0 ] && echo ok || echo FAILED)"
fi

# ---------------------------------------------------------------- 4. valgrind
if [[ $STAGES == *" valgrind "* ]]; then
  banner "4. valgrind: unit suite and gpulint commands under memcheck"
  VG=(valgrind --quiet --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite
    --show-leak-kinds=definite --track-origins=no --suppressions="$ROOT/scripts/valgrind.supp")
  rc=0
  # Left out here (they run in the other stages): ptxas asserts that 10 MB
  # parse in under a second of wall time, which nothing does under memcheck;
  # cusrc parses every example with libclang, which takes memcheck over 20
  # minutes, and argrun parses its file once per argument list (libclang
  # itself is not ours to check; gpulint's use of it is covered by the ASan
  # stage and the valgrind runs of gpulint below).
  mapfile -t vg_tests < <(meson introspect --tests build-test 2>/dev/null | python3 -c '
import json, sys
skip = {"ptxas", "cusrc", "argrun"}
for t in json.load(sys.stdin):
    if any(x.split(":")[-1] == "unit" for x in t["suite"]) and t["name"] not in skip:
        print(t["name"])')
  rm -f build-test/meson-logs/valgrind*
  if [ ${#vg_tests[@]} -gt 0 ] && { [ -x build-test/src/gpulint ] || meson compile -C build-test; }; then
    GPULINT_SWEEP=quick meson test -C build-test "${vg_tests[@]}" --no-rebuild --print-errorlogs \
      --logbase valgrind --timeout-multiplier 10 --wrap="$(printf '%q ' "${VG[@]}")" || rc=$?
  else
    rc=1
  fi
  count_meson "valgrind (unit)" "build-test/meson-logs/valgrind*.json" "$rc"

  vp=0
  vf=0
  ex13='threads/sm=2048,regs/sm=65536,smem/sm=48K,blocks/sm=32,granularity=none'
  vg_cmds=(
    "occupancy --machine $ex13 --threads 256 --regs 40 --smem 8K --explain"
    "occupancy --arch sm_80 --threads 256 --regs 34 --explain --format json"
    "--ptxas-log tests/data/cli/logs/two-kernels-sm80.log tests/data/cli/logs/kernels.cu --arch sm_80,sm_90 --block 256"
    "tests/data/cli/cu/scale.cu --arch sm_80 --format json"
    "verify --from tests/data/verify/h100/verify.json --save-model build-test/valgrind-model.ini"
    "verify --dry-run --check occupancy,bank --predictions tests/data/verify/predictions-h100-sxm.json"
    "merge tests/data/merge/a.json tests/data/merge/b.json"
    "cache --stats"
    "--from tests/data/wrap/build --arch sm_90 --format json"
    "wrap /usr/local/cuda/bin/nvcc --version"
    "coalesce --stride 1 --offset 1 --explain"
    "bank --stride 32 --block 32x2 --explain"
    "warps --block 40 --grid 2 --explain"
    "roofline --gemm 4096,4096,4096 --tile 128 --thread-tile 8x8 --gpu a100-sxm4-80gb --explain"
    "launch --problem 1000x1000 --block 32x32,16x16,256x1 --gpu a100-sxm4-80gb --explain"
  )
  # A fresh cache: the first command with a .cu file builds the precompiled
  # CUDA headers (clang_saveTranslationUnit), the next one loads them.
  rm -rf build-test/valgrind-cache
  for c in "${vg_cmds[@]}"; do
    read -r -a args <<<"$c"
    if [ -x build-test/src/gpulint ] &&
        GPULINT_NO_DEVICE=1 NO_COLOR=1 GPULINT_MODELS="$ROOT/models" \
        GPULINT_CACHE_DIR="$ROOT/build-test/valgrind-cache" \
        "${VG[@]}" build-test/src/gpulint "${args[@]}" >/dev/null 2>build-test/valgrind-cmd.log; then
      vp=$((vp + 1))
      echo "ok   valgrind gpulint $c"
    else
      vf=$((vf + 1))
      echo "FAIL valgrind gpulint $c"
      cat build-test/valgrind-cmd.log
    fi
  done
  # The web page's entry points, natively (the same C as the .wasm).
  if [ -x build-test/src/web/gpulint-web-native ]; then
    if "${VG[@]}" build-test/src/web/gpulint-web-native <tests/web/valgrind-requests.txt \
        >/dev/null 2>build-test/valgrind-cmd.log; then
      vp=$((vp + 1))
      echo "ok   valgrind gpulint-web-native < tests/web/valgrind-requests.txt"
    else
      vf=$((vf + 1))
      echo "FAIL valgrind gpulint-web-native < tests/web/valgrind-requests.txt"
      cat build-test/valgrind-cmd.log
    fi
  fi
  stage_ok "valgrind (gpulint commands)" "$vp" "$vf" 0 "$([ "$vf" -eq 0 ] && echo ok || echo FAILED)"
fi

# ---------------------------------------------------------------- summary
banner "summary ($(($(date +%s) - START)) s)"
python3 - "$SUMMARY" <<'EOF'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
tp = tf = ts = 0
for name, p, f, s, st in rows:
    tp += int(p); tf += int(f); ts += int(s)
    print(f"  {st:6}  {name:30}  {p:>5} passed  {f:>3} failed  {s:>3} skipped")
if not rows:
    print("  no stage ran")
    tf += 1
print(f"total: {tp} passed, {tf} failed, {ts} skipped")
sys.exit(1 if tf else 0)
EOF
