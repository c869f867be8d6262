#!/usr/bin/env python3
"""Nothing a user or a repository names may reach nvcc's shell.

usage: security_names.py GPULINT SRC_ROOT

nvcc runs its sub-steps through `sh -c`, pasting file names, -D and -I
values into the command text. This test builds a tree of hostile names
(spaces, ';', $(...), backquotes, quotes, '*', newlines, a leading '-',
non-ASCII and non-UTF-8 bytes) in directory names, file names, the working
directory, $TMPDIR, nvcc arguments after "--" and a compile_commands.json,
puts probe programs on PATH under every name a payload calls, and runs
gpulint through the main command (text, JSON, SARIF), --ptxas-log, check and
-p. It passes when no probe ever ran, every compile that the names allow
succeeds with the user's real path in every output, and what cannot be
passed safely is refused with one line and exit status 3.
Ends with "N passed, N failed" (exit 77, "skipped: no nvcc", without nvcc).
"""

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import find_nvcc  # noqa: E402

GPULINT, SRC_ROOT = sys.argv[1], sys.argv[2]
PROBES = ["gpulint_probe", "x", "y", "probe"]
KERNEL = b"""#include "h.h"
#include "../up.h"
__global__ void scale(float *out, const float *in)
{
    __shared__ float tile[32][32];
    tile[threadIdx.x][threadIdx.y] = in[threadIdx.x] * SCALE * UP;
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.y][threadIdx.x];
}
int main() { scale<<<4, dim3(32, 32)>>>(nullptr, nullptr); }
"""
BROKEN = b'#include "h.h"\n__global__ void bad() { undefined_thing(); }\n'
# Hostile names, each used as a directory and (with .cu) as a file name.
NAMES = [
    b"with space",
    b"semi;colon&amp|pipe",
    b"dollar $(gpulint_probe) ${x}",
    b"back `gpulint_probe`",
    b"quotes \"dq\" 'sq'",
    b"glob * ? [a]",
    b"new\nline",
    b"-leading dash",
    "non-ascii \u00e9\u6f22 \u2603".encode(),
    b"latin1 \xe9",
]


class Runner:
    def __init__(self, root):
        self.root = root
        self.marker = os.path.join(root, "probe-ran")
        self.bin = os.path.join(root, "bin")
        os.mkdir(self.bin)
        for p in PROBES:
            path = os.path.join(self.bin, p)
            with open(path, "w") as f:
                f.write(f'#!/bin/sh\necho "{p} $*" >> "{self.marker}"\n')
            os.chmod(path, stat.S_IRWXU)
        self.passed = self.failed = 0

    def env(self, **extra):
        env = dict(os.environ)
        env.update(PATH=self.bin + os.pathsep + env.get("PATH", ""), GPULINT_NO_DEVICE="1",
                   NO_COLOR="1", LC_ALL="C", GPULINT_MODELS=os.path.join(SRC_ROOT, "models"))
        env.update(extra)
        return env

    def run(self, args, cwd, **extra):
        return subprocess.run([GPULINT] + args, cwd=cwd, env=self.env(**extra),
                              capture_output=True, timeout=300)

    def check(self, name, ok, detail=""):
        if os.path.exists(self.marker):
            with open(self.marker, "rb") as f:
                ran = f.read()
            os.unlink(self.marker)
            ok = False
            detail += f"\n  a probe ran: {ran!r}"
        if ok:
            self.passed += 1
            print(f"ok   {name}")
        else:
            self.failed += 1
            print(f"FAIL {name}{detail}")


def fsname(b):
    return os.fsdecode(b)


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def show(r):
    return (f"\n  exit {r.returncode}\n  stdout: {r.stdout[-600:]!r}\n"
            f"  stderr: {r.stderr[-600:]!r}")


def main():
    if not find_nvcc():
        print("skipped: no nvcc")
        return 77
    root = tempfile.mkdtemp(prefix="gpulint-security-")
    try:
        return run_all(Runner(root), root)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def run_all(t, root):
    # repo/up.h and, per hostile name N: repo/N/h.h, repo/N/N.cu, repo/N/broken N.cu
    repo = os.path.join(root, "repo $(gpulint_probe)")
    os.mkdir(repo)
    write(os.path.join(repo, "up.h"), b"#define UP 2\n")
    cases = []
    for n in NAMES:
        d = os.path.join(os.fsencode(repo), n)
        os.mkdir(d)
        write(os.path.join(d, b"h.h"), b"#define SCALE 3\n")
        write(os.path.join(d, n + b".cu"), KERNEL)
        write(os.path.join(d, b"broken " + n + b".cu"), BROKEN)
        cases.append(n)

    for n in cases:
        label = repr(n)[2:-1]
        # a name that starts with '-' is written ./-name, as for any tool
        lead = b"./" if n.startswith(b"-") else b""
        rel = fsname(lead + n + b"/" + n + b".cu")
        # a relative name from the repository, JSON: kernels and findings
        # name the file exactly as given
        r = t.run([rel, "--arch", "sm_80", "--format", "json"], cwd=repo)
        ok = r.returncode == 0
        detail = show(r)
        if ok:
            doc = json.loads(r.stdout)
            want = rel.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
            files = {k["file"] for k in doc["kernels"]} | \
                {f["file"] for f in doc["findings"]}
            ok = files == {want} and any(f["check"] == "gpulint-bank-conflict"
                                         for f in doc["findings"])
            detail += f"\n  files in JSON: {files!r}, want {want!r}"
        t.check(f"json, file and directory '{label}'", ok, detail)

        # text from inside the hostile directory (the working directory is
        # hostile too), with the source analysis
        base = fsname(n + b".cu")
        r = t.run(["./" + base, "--arch", "sm_80", "--block", "32x32"],
                  cwd=os.path.join(os.fsencode(repo), n))
        want = os.fsencode("./" + base)
        ok = r.returncode == 0 and r.stdout.startswith(want + b"  [sm_80") and \
            (want + b":6:") in r.stdout and b"gpulint-" not in r.stderr
        t.check(f"text in a hostile working directory '{label}'", ok, show(r))

        # nvcc's own errors are relayed with the user's path
        broken = fsname(lead + n + b"/broken " + n + b".cu")
        r = t.run([broken, "--arch", "sm_80", "--no-source"], cwd=repo)
        real = os.fsencode(broken)
        # cicc shows a byte that is not UTF-8 as '?' in the location (plain
        # nvcc does too); the closing line keeps the name's bytes
        located = real + b"(2): error" in r.stderr or \
            (b"?" in r.stderr and b"(2): error" in r.stderr and
             b'compilation of "' + real + b'"' in r.stderr)
        ok = r.returncode == 2 and located and b"/gpulint-" not in r.stderr and \
            b"gpulint.cu" not in r.stderr
        t.check(f"nvcc error relayed with the real path '{label}'", ok, show(r))

    # SARIF: the artifact URI is a percent-encoded relative reference
    rel = fsname(NAMES[1] + b"/" + NAMES[1] + b".cu")
    r = t.run([rel, "--arch", "sm_80", "--format", "sarif"], cwd=repo)
    ok = r.returncode == 0
    if ok:
        doc = json.loads(r.stdout)
        uris = {loc["physicalLocation"]["artifactLocation"]["uri"]
                for res in doc["runs"][0]["results"] for loc in res["locations"]}
        ok = uris == {"semi%3Bcolon%26amp%7Cpipe/semi%3Bcolon%26amp%7Cpipe.cu"}
    t.check("sarif uri percent-encoded", ok, show(r))

    # absolute path through a hostile repository directory
    absf = os.path.join(repo, fsname(NAMES[2] + b"/" + NAMES[2] + b".cu"))
    r = t.run([absf, "--arch", "sm_90", "--no-source"], cwd=root)
    t.check("absolute path", r.returncode == 0 and r.stdout.startswith(os.fsencode(absf)), show(r))

    # a hostile $TMPDIR is not used for the stage
    tmp = os.path.join(root, "tmp $(gpulint_probe)")
    os.mkdir(tmp)
    r = t.run([rel, "--arch", "sm_80", "--no-source"], cwd=repo, TMPDIR=tmp)
    t.check("hostile TMPDIR", r.returncode == 0, show(r))

    # nvcc arguments after "--": -I/-D with hostile values compile through
    # the stage; the macro's value is source text, never a command
    inc = os.path.join(root, "inc $(gpulint_probe) `x`;y")
    os.mkdir(inc)
    write(os.path.join(inc, "extra.h"), b"#define EXTRA 5\n")
    src = os.path.join(root, "uses.cu")
    write(src, b'#include <extra.h>\nconstexpr const char *msg = MSG;\n'
               b'__global__ void k(float *o) { o[threadIdx.x] = EXTRA; }\n')
    r = t.run(["uses.cu", "--arch", "sm_80", "--no-source", "--", "-I", inc,
               '-DMSG="$(gpulint_probe) `x`; y"', "-DFLAG=1"], cwd=root)
    t.check("-- -I and -D with hostile values", r.returncode == 0 and b"k(float*)" in r.stdout,
            show(r))
    # ... and what has no safe form is refused with one line
    for bad in (["-Xcompiler", "-DX=$(gpulint_probe)"], ["-Xptxas", "-v;gpulint_probe"],
                ["--options-file", "f"], ["-ccbin", "`gpulint_probe`"],
                ["-Xcompiler", "a\nb"]):
        r = t.run(["uses.cu", "--arch", "sm_80", "--no-source", "--", "-I", inc] + bad,
                  cwd=root)
        err = r.stderr.decode(errors="replace")
        ok = r.returncode == 3 and err.count("\n") == 1 and err.startswith("gpulint: error: ")
        t.check(f"refused: {bad!r}", ok, show(r))

    # --ptxas-log with a hostile log name and source (no nvcc involved)
    log = os.path.join(root, "log $(gpulint_probe).txt")
    write(log, b"ptxas info    : Compiling entry function '_Z5scalePfPKf' for 'sm_80'\n"
               b"ptxas info    : Used 12 registers, 4096 bytes smem, 368 bytes cmem[0]\n")
    r = t.run(["--ptxas-log", log, fsname(NAMES[3] + b"/" + NAMES[3] + b".cu"), "--format",
               "json"], cwd=repo)
    ok = r.returncode == 0 and json.loads(r.stdout)["kernels"][0]["registers"] == 12
    t.check("--ptxas-log with hostile names", ok, show(r))

    # check, with the file last as a pre-commit hook passes it
    r = t.run(["check", "--arch", "sm_80", "--max-regs", "255", "--nvcc-arg", "-DX=1",
               fsname(NAMES[4] + b"/" + NAMES[4] + b".cu")], cwd=repo)
    t.check("check", r.returncode == 0, show(r))
    r = t.run(["check", "--arch", "sm_80", "--nvcc-arg", "-Xcompiler",
               "--nvcc-arg", "$(gpulint_probe)", fsname(NAMES[4] + b"/" + NAMES[4] + b".cu")],
              cwd=repo)
    t.check("check refuses a hostile --nvcc-arg", r.returncode == 3, show(r))

    # -p: a compilation database in a hostile directory whose entry has
    # hostile flags
    dbdir = os.path.join(root, "build $(gpulint_probe);x")
    os.mkdir(dbdir)
    n = NAMES[0]
    fdir = os.path.join(repo, fsname(n))
    entry = {"directory": fdir, "file": fsname(n + b".cu"),
             "arguments": ["nvcc", "-c", "-I", inc, "-DMSG=\"$(gpulint_probe)\"",
                           "-Xcompiler", "`gpulint_probe`", fsname(n + b".cu")]}
    with open(os.path.join(dbdir, "compile_commands.json"), "w") as f:
        json.dump([entry], f)
    r = t.run(["-p", dbdir, os.path.join(fdir, fsname(n + b".cu")), "--arch", "sm_80"], cwd=root)
    t.check("-p with a hostile database", r.returncode == 0 and b"scale(float*" in r.stdout,
            show(r))

    # -p with no file: every unit of a database, its flags reaching nvcc.
    # Hostile directories and file names, "command" strings whose quoted
    # -D values and -I paths hold $(...), backquotes and ';', a CMake-style
    # code=[...] list, and -Xcompiler with a payload beside a macro.
    whole = os.path.join(root, "whole `gpulint_probe`")
    os.mkdir(whole)
    entries, want = [], 0
    for n in NAMES:
        if n.startswith(b"-") or b"\n" in n or b"\xe9" in n and b"latin1" in n:
            continue  # a command string is text; these are covered by "arguments" above
        d = os.path.join(repo, fsname(n))
        q = "'" + d.replace("'", "'\\''") + "'"
        f = "'" + os.path.join(d, fsname(n + b".cu")).replace("'", "'\\''") + "'"
        entries.append({"directory": whole,
                        "command": f"/usr/local/cuda/bin/nvcc -I{q} -I '{inc}' "
                                   f"-D'MSG=\"$(gpulint_probe)\"' "
                                   f"--generate-code=arch=compute_80,code=[compute_80,sm_80] "
                                   f"-Xcompiler '-DQ=1,`gpulint_probe`' -x cu -c {f} -o o.o",
                        "file": os.path.join(d, fsname(n + b".cu"))})
        want += 1
    with open(os.path.join(whole, "compile_commands.json"), "w") as fh:
        json.dump(entries, fh)
    r = t.run(["-p", whole, "--format", "json", "-j", "2"], cwd=repo)
    ok = r.returncode == 0
    if ok:
        doc = json.loads(r.stdout)
        ok = len({k["file"] for k in doc["kernels"]}) == want and \
            all(k["arch"] == "sm_80" for k in doc["kernels"])
    t.check(f"-p over a whole hostile database ({want} units)", ok, show(r))
    # An argument that cannot be passed safely is refused before nvcc runs.
    bad = [{"directory": whole, "file": os.path.join(repo, fsname(NAMES[0]), fsname(NAMES[0] + b".cu")),
            "arguments": ["nvcc", "-Xptxas", "$(gpulint_probe)", "-c", "x.cu"]}]
    bad_dir = os.path.join(root, "bad db")
    os.mkdir(bad_dir)
    with open(os.path.join(bad_dir, "compile_commands.json"), "w") as fh:
        json.dump(bad, fh)
    r = t.run(["-p", bad_dir, "--arch", "sm_80"], cwd=repo)
    t.check("-p refuses a database flag that cannot be passed safely",
            r.returncode == 3 and r.stderr.count(b"error:") == 1 and b"compile_commands" in r.stderr,
            show(r))

    print(f"{t.passed} passed, {t.failed} failed")
    return 1 if t.failed else 0


if __name__ == "__main__":
    sys.exit(main())
