#!/usr/bin/env python3
"""sass-keep: cut an `nvdisasm -gi` listing down to the functions a
`cuobjdump -sass` fixture holds, for tests/data/truth/sass-lines/.

usage: sass-keep.py FIXTURE.sass.gz LISTING ROOT > OUT.sass

FIXTURE names the functions to keep (`Function : NAME`); LISTING is what
scripts/ncu-truth.py writes with TRUTH_SASS_ONLY=1; ROOT, the truth set's
directory on the machine that compiled it, is cut from the `//## File`
paths so that they name the copies under tests/data/truth. The output
opens with `arch = sm_90` (nvdisasm prints no architecture; the truth set
is compiled for sm_90 only)."""
import gzip
import re
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: sass-keep.py FIXTURE.sass.gz LISTING ROOT")
    with gzip.open(sys.argv[1], "rt") as f:
        keep = set(re.findall(r"Function : (\S+)", f.read()))
    root = sys.argv[3].rstrip("/") + "/"
    out = sys.stdout
    out.write("arch = sm_90\n")
    on = False
    with open(sys.argv[2]) as f:
        for line in f:
            m = re.match(r"//-+ \.text\.(\S+)\s+-+", line)
            if m or line.startswith("//---"):
                on = bool(m) and m.group(1) in keep
            if on:
                out.write(line.replace(root, ""))


main()
