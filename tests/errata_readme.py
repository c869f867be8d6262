#!/usr/bin/env python3
"""The README's list of where the books are wrong or simplify is the
catalogue's own (`gpulint exercises --errata`), not a copy that can drift.

    errata_readme.py GPULINT SRC_ROOT

Ends with "N passed, N failed".
"""
import os
import subprocess
import sys


def main():
    gpulint, src = sys.argv[1], sys.argv[2]
    env = dict(os.environ, GPULINT_MODELS=os.path.join(src, "models"),
               GPULINT_EXERCISES=os.path.join(src, "exercises"), NO_COLOR="1")
    want = subprocess.run([gpulint, "exercises", "--errata"], capture_output=True, text=True,
                          env=env, check=True).stdout
    readme = open(os.path.join(src, "README.md"), encoding="utf-8").read()
    begin, end = "<!-- errata: begin (gpulint exercises --errata) -->\n", "<!-- errata: end -->"
    if begin not in readme or end not in readme:
        print("FAIL README.md has no errata block")
        print("0 passed, 1 failed")
        return 1
    have = readme.split(begin, 1)[1].split(end, 1)[0]
    if have != want:
        print("FAIL the README's errata differ from 'gpulint exercises --errata':")
        for line in sorted(set(want.splitlines()) ^ set(have.splitlines())):
            print(("  README lacks: " if line in want else "  README only: ") + line)
        print("0 passed, 1 failed")
        return 1
    print("ok   the README lists the catalogue's %d errata" % len(want.splitlines()))
    print("1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
