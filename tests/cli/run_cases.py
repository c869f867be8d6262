#!/usr/bin/env python3
"""CLI golden tests for gpulint, in the spirit of jq's tests/*.test.

usage: run_cases.py GPULINT SRC_ROOT [BUILD_ROOT] [FILTER...]

Runs every tests/cli/*.test file (or only those whose name contains one of
the FILTERs) against the gpulint binary and ends with the line
"N passed, N failed[, N skipped]". Exit status 0 when nothing failed.

Case file format (one case per file):

    # comment lines first (any number)
    args: occupancy --threads 256 --regs 40 --machine "threads/sm=2048,..."
    stdin: cli/some-input.log        (optional; default: /dev/null)
    env: KEY=VALUE                   (optional, repeatable; KEY= sets it empty)
    requires: nvcc                   (optional; skip the case when absent)
    cwd: {src}                       (optional; where it runs, default tests/data)
    exit: 0
    stdout:
    ...the exact expected standard output, up to the end of the file or up
    to a line that is exactly "stderr:"...
    stderr:
    ...the exact expected standard error (only when "stderr:" is present;
    otherwise stderr is not checked)...

`args` is split with shlex (POSIX shell quoting, no shell runs). In args,
stdin, env values and the expected stdout/stderr, {data} stands for
SRC_ROOT/tests/data, {src} for SRC_ROOT and {build} for BUILD_ROOT, so
expected outputs that contain paths stay portable. A relative stdin path is
relative to tests/data. Every case runs with its working directory at
tests/data, or the case's cwd (so relative file names in args print as
written), with
GPULINT_NO_DEVICE=1, NO_COLOR=1, LC_ALL=C, GPULINT_MODELS=SRC_ROOT/models and
GPULINT_CACHE_DIR=BUILD_ROOT/test-cache on top of the caller's environment; env: lines override those. Each case has
a time limit (GPULINT_CLI_TIMEOUT seconds, default 300): a hang is a failure.
Cases run in parallel (GPULINT_CLI_JOBS, default: the CPU count).
"""

import concurrent.futures
import difflib
import os
import shlex
import shutil
import subprocess
import sys

KEYS = ("args", "stdin", "env", "exit", "requires", "cwd")


class CaseError(Exception):
    pass


def expand(text, subst):
    for key, val in subst.items():
        text = text.replace("{" + key + "}", val)
    return text


def parse_case(path):
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    lines = text.splitlines(keepends=True)
    case = {"env": [], "requires": [], "stderr": None}
    i = 0
    while i < len(lines):
        raw = lines[i]
        line = raw.rstrip("\r\n")
        i += 1
        if line.startswith("#") or not line.strip():
            continue
        if line == "stdout:":
            break
        key, sep, val = line.partition(":")
        if not sep or key not in KEYS:
            raise CaseError(f"line {i}: expected one of {', '.join(KEYS)}, 'stdout:' or a "
                            f"'#' comment, got {line!r}")
        val = val.strip()
        if key in ("env", "requires"):
            case[key].append(val)
        elif key in case:
            raise CaseError(f"line {i}: '{key}:' given twice")
        else:
            case[key] = val
    else:
        raise CaseError("no 'stdout:' line")
    for need in ("args", "exit"):
        if need not in case:
            raise CaseError(f"missing '{need}:' line")
    try:
        case["exit"] = int(case["exit"])
    except ValueError:
        raise CaseError(f"'exit:' needs an integer, got {case['exit']!r}") from None
    body = lines[i:]
    out, err = [], None
    for raw in body:
        if err is None and raw.rstrip("\r\n") == "stderr:":
            err = []
            continue
        (out if err is None else err).append(raw)
    case["stdout"] = "".join(out)
    case["stderr"] = None if err is None else "".join(err)
    for e in case["env"]:
        if "=" not in e or not e.partition("=")[0]:
            raise CaseError(f"'env:' needs KEY=VALUE, got {e!r}")
    return case


def have(requirement, env):
    if requirement == "nvcc":
        home = env.get("CUDA_HOME")
        if home and os.access(os.path.join(home, "bin", "nvcc"), os.X_OK):
            return True
        return bool(shutil.which("nvcc", path=env.get("PATH"))) or \
            os.access("/usr/local/cuda/bin/nvcc", os.X_OK)
    raise CaseError(f"unknown requirement {requirement!r} (known: nvcc)")


def diff(kind, expected, actual):
    d = difflib.unified_diff(expected.splitlines(keepends=True),
                             actual.splitlines(keepends=True),
                             f"expected {kind}", f"actual {kind}")
    out = []
    for line in d:
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def run_case(path, gpulint, subst, data_dir, timeout):
    """Returns (status, report) with status in 'ok', 'FAIL', 'SKIP'."""
    name = os.path.basename(path)
    try:
        case = parse_case(path)
        env = dict(os.environ)
        env.update({"GPULINT_NO_DEVICE": "1", "NO_COLOR": "1", "LC_ALL": "C",
                    "GPULINT_MODELS": os.path.join(subst["src"], "models"),
                    "GPULINT_CACHE_DIR": os.path.join(subst["build"], "test-cache")})
        for e in case["env"]:
            k, _, v = e.partition("=")
            env[k] = expand(v, subst)
        for r in case["requires"]:
            if not have(r, env):
                return "SKIP", f"SKIP {name} (needs {r})\n"
        argv = [gpulint] + shlex.split(expand(case["args"], subst))
        stdin = subprocess.DEVNULL
        if "stdin" in case:
            p = expand(case["stdin"], subst)
            stdin = open(p if os.path.isabs(p) else os.path.join(data_dir, p), "rb")
        root = os.path.abspath(subst["src"])
        for part in ("stdout", "stderr"):
            if root != "/" and root in (case[part] or ""):
                raise CaseError(f"the expected {part} holds this checkout's path {root}; "
                                "write {src} or {data} so it passes on any clone")
    except (CaseError, OSError, ValueError) as exc:
        return "FAIL", f"FAIL {name}: bad case file: {exc}\n"
    cwd = os.path.join(data_dir, expand(case.get("cwd", "."), subst))
    try:
        proc = subprocess.run(argv, stdin=stdin, capture_output=True, env=env, cwd=cwd,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return "FAIL", f"FAIL {name}: no result after {timeout} s: {shlex.join(argv)}\n"
    except OSError as exc:
        return "FAIL", f"FAIL {name}: cannot run {gpulint}: {exc}\n"
    finally:
        if stdin is not subprocess.DEVNULL:
            stdin.close()
    out = proc.stdout.decode("utf-8", "backslashreplace")
    err = proc.stderr.decode("utf-8", "backslashreplace")
    problems = []
    if proc.returncode != case["exit"]:
        problems.append(f"exit status {proc.returncode}, expected {case['exit']}\n")
    exp_out = expand(case["stdout"], subst)
    if out != exp_out:
        problems.append(diff("stdout", exp_out, out))
    if case["stderr"] is not None:
        exp_err = expand(case["stderr"], subst)
        if err != exp_err:
            problems.append(diff("stderr", exp_err, err))
    if not problems:
        return "ok", f"ok   {name}\n"
    report = [f"FAIL {name}\n", f"  command: cd {shlex.quote(cwd)} && "
              f"{shlex.join(argv)}\n"]
    for p in problems:
        report.append("".join("  " + l for l in p.splitlines(keepends=True)))
    if case["stderr"] is None and err and proc.returncode != case["exit"]:
        report.append("  stderr was:\n" + "".join("    " + l for l in
                                                  err.splitlines(keepends=True)))
    return "FAIL", "".join(report)


def main(argv):
    if len(argv) < 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    gpulint = os.path.abspath(argv[1])
    src = os.path.abspath(argv[2])
    build = os.path.abspath(argv[3]) if len(argv) > 3 else os.path.dirname(gpulint)
    filters = argv[4:]
    cli_dir = os.path.join(src, "tests", "cli")
    data_dir = os.path.join(src, "tests", "data")
    subst = {"data": data_dir, "src": src, "build": build}
    cases = sorted(os.path.join(cli_dir, f) for f in os.listdir(cli_dir)
                   if f.endswith(".test") and (not filters or any(x in f for x in filters)))
    if not cases:
        print(f"no .test files in {cli_dir}" + (f" matching {filters}" if filters else ""))
        print("0 passed, 1 failed")
        return 1
    timeout = float(os.environ.get("GPULINT_CLI_TIMEOUT", "300"))
    jobs = int(os.environ.get("GPULINT_CLI_JOBS", "0")) or os.cpu_count() or 2
    counts = {"ok": 0, "FAIL": 0, "SKIP": 0}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(run_case, c, gpulint, subst, data_dir, timeout) for c in cases]
        for fut in futures:
            status, report = fut.result()
            counts[status] += 1
            sys.stdout.write(report)
            sys.stdout.flush()
    summary = f"{counts['ok']} passed, {counts['FAIL']} failed"
    if counts["SKIP"]:
        summary += f", {counts['SKIP']} skipped"
    print(summary)
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
