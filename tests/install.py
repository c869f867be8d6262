#!/usr/bin/env python3
"""gpulint installed like a system tool, used from outside the source tree.

usage: install.py GPULINT SRC_ROOT BUILD_ROOT

`meson install --destdir` into a temporary directory, then from another
temporary directory (no GPULINT_MODELS, no source tree in reach):
--version names the commit, the optional parts and data directories under
the destdir; models, a calculator, a report of a copied example (with nvcc)
and a verify dry run work; the man page is installed (when scdoc was found)
and documents every option of every command; the bash and zsh completions
are installed and complete subcommands, options and --arch/--gpu values.
Ends with "N passed, N failed".
"""

import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, find_nvcc  # noqa: E402
import tempfile

GPULINT, SRC_ROOT, BUILD_ROOT = sys.argv[1], sys.argv[2], sys.argv[3]
check = Checks()




def find(root, name, under=""):
    for d, _, files in os.walk(root):
        if name in files and d.endswith(under):
            return os.path.join(d, name)
    return None




def main():
    with tempfile.TemporaryDirectory() as tmp:
        dest, work = os.path.join(tmp, "dest"), os.path.join(tmp, "work")
        os.mkdir(work)
        p = subprocess.run(["meson", "install", "-C", BUILD_ROOT, "--destdir", dest,
                            "--no-rebuild", "--quiet"], capture_output=True, text=True)
        check(p.returncode == 0, "meson install --destdir", p.stdout + p.stderr)
        exe = find(dest, "gpulint", "/bin")
        check(exe is not None and os.access(exe, os.X_OK), f"installed binary: {exe}")
        if not exe:
            return
        bindir = os.path.dirname(exe)
        env = {k: v for k, v in os.environ.items()
               if k not in ("GPULINT_MODELS", "GPULINT_KERNELS")}
        nv = find_nvcc()
        env.update(NO_COLOR="1", LC_ALL="C", GPULINT_NO_DEVICE="1",
                   GPULINT_CACHE_DIR=os.path.join(tmp, "cache"), HOME=tmp,
                   PATH=os.pathsep.join([bindir] + ([os.path.dirname(nv)] if nv else [])
                                        + ["/usr/bin", "/bin"]))

        def run(*args, cwd=work):
            return subprocess.run(["gpulint", *args], cwd=cwd, env=env, capture_output=True,
                                  text=True, timeout=600)

        v = run("--version")
        lines = v.stdout.splitlines()
        check(v.returncode == 0 and re.match(r"gpulint \d+\.\d+\.\d+ \(commit [0-9a-f]{7,}\+?|unknown\)",
                                             lines[0] if lines else ""),
              "--version: version and commit", v.stdout + v.stderr)
        for part in ("libclang", "cairo", "cudart"):
            check(any(l.split()[:1] == [part] for l in lines), f"--version names {part}",
                  v.stdout)
        for d in ("models", "kernels"):
            row = [l for l in lines if l.split()[:1] == [d]]
            check(row and row[0].split(None, 1)[1].startswith(os.path.realpath(dest))
                  and "(missing)" not in row[0], f"--version: {d} found under the destdir",
                  v.stdout)

        m = run("models", "--ids", "gpu")
        check(m.returncode == 0 and "h100-sxm" in m.stdout.split(), "models from the data dir",
              m.stderr)
        o = run("occupancy", "--gpu", "a100-sxm4-80gb", "--threads", "256", "--regs", "32")
        check(o.returncode == 0 and "100.0%" in o.stdout, "occupancy calculator", o.stdout + o.stderr)
        if nv:
            shutil.copy(os.path.join(SRC_ROOT, "examples", "vector_add.cu"), work)
            r = run("vector_add.cu", "--gpu", "h100-sxm", "--no-source")
            check(r.returncode == 0 and "vectorAdd" in r.stdout, "report of a copied example",
                  r.stdout + r.stderr)
            if find(dest, "gpulint.html", os.path.join("share", "gpulint", "web")):
                h = run("vector_add.cu", "--gpu", "h100-sxm", "--no-source", "--format", "html")
                check(h.returncode == 0 and h.stdout.startswith("<!DOCTYPE html>")
                      and 'data-kind="report"' in h.stdout,
                      "--format html with the installed web page", h.stderr[-400:])
            else:
                print("skipped: the web page was not built (--format html)")
            d = run("verify", "--dry-run", "--check", "occupancy", "--only", "occ_regs128*")
            check(d.returncode == 0 and "dry run" in d.stdout,
                  "verify --dry-run with the installed kernels", d.stdout[-800:] + d.stderr)
            if find(dest, "gpulint.html", os.path.join("share", "gpulint", "web")):
                vh = os.path.join(work, "verify.html")
                v = run("verify", "--from", os.path.join(SRC_ROOT, "tests", "data", "verify", "h100",
                                                         "verify.json"), "--html", vh)
                page = open(vh).read() if os.path.exists(vh) else ""
                check(v.returncode == 0 and page.startswith("<!DOCTYPE html>")
                      and 'data-kind="verify"' in page,
                      "verify --html with the installed web page", v.stderr[-400:])
        else:
            print("skipped: no nvcc (report and verify --dry-run)")

        man = find(dest, "gpulint.1")
        scd = open(os.path.join(SRC_ROOT, "docs", "gpulint.1.scd")).read()
        if shutil.which("scdoc"):
            text = open(man).read() if man else ""
            check(man and "/man1/" in man and ".TH" in text, f"man page installed: {man}")
        else:
            print("skipped: no scdoc (man page not built)")
        cmds = [l.split()[0] for l in run("--help").stdout.split("commands:")[1]
                .split("\n\n")[0].splitlines() if l.strip()]
        missing = []
        for c in [None] + cmds:
            h = run(*( [c, "--help"] if c else ["x.cu", "--help"]))
            for opt in re.findall(r"^\s+(?:-\w, )?(--[a-z][a-z0-9-]*)", h.stdout, re.M):
                if f"*{opt}*" not in scd:
                    missing.append(f"{c or 'report'} {opt}")
            if c and f"*{c}*" not in scd:
                missing.append(f"command {c}")
        check(not missing, f"the man page documents every command and option of {len(cmds) + 1}",
              " ".join(missing))

        bash_file = find(dest, "gpulint", "/bash-completion/completions")
        check(bash_file is not None, f"bash completion installed: {bash_file}")
        if bash_file:
            def bash_complete(line):
                script = ('source "$1"; read -ra COMP_WORDS <<<"$2"; '
                          '[[ $2 == *" " ]] && COMP_WORDS+=(""); '
                          'COMP_CWORD=$((${#COMP_WORDS[@]}-1)); _gpulint; '
                          'printf "%s\\n" "${COMPREPLY[@]}"')
                return subprocess.run(["bash", "-c", script, "_", bash_file, line], cwd=work,
                                      env=env, capture_output=True, text=True).stdout.split()
            for line, want in (("gpulint occ", ["occupancy"]),
                               ("gpulint --ar", ["--arch"]),
                               ("gpulint --arch sm_8", ["sm_80", "sm_86", "sm_87", "sm_89"]),
                               ("gpulint check --gpu h1", ["h100-pcie", "h100-sxm"]),
                               ("gpulint verify --counters ", ["auto", "on", "off"]),
                               ("gpulint x.cu --format ", ["text", "json", "sarif", "html"]),
                               ("gpulint occupancy --ex", ["--explain"])):
                got = bash_complete(line)
                check(got == want, f"bash: '{line}' -> {' '.join(want)}", got)
        zsh_file = find(dest, "_gpulint")
        check(zsh_file is not None and "/zsh/site-functions/" in zsh_file,
              f"zsh completion installed: {zsh_file}")
        if zsh_file and shutil.which("zsh"):
            # compadd and _files stand in for the completion system; the
            # function's own logic runs as zsh would run it.
            script = ('compadd() { [[ $1 == -- ]] && shift; print -rl -- "$@" }; '
                      '_files() { print -r -- "<files>" }; words=(${(z)2}); '
                      '[[ $2 == *" " ]] && words+=(""); CURRENT=${#words}; source "$1"')
            for line, want in (("gpulint --ar", "--arch"), ("gpulint --gpu ", "h100-sxm"),
                               ("gpulint verify --check ", "coalescing"),
                               ("gpulint ", "occupancy")):
                got = subprocess.run(["zsh", "-c", script, "_", zsh_file, line], cwd=work,
                                     env=env, capture_output=True, text=True)
                check(want in got.stdout.split(), f"zsh: '{line}' offers {want}",
                      got.stdout + got.stderr)
        elif zsh_file:
            print("skipped: no zsh (zsh completion not run)")
    check.finish()


main()
