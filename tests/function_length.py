#!/usr/bin/env python3
"""No function in src/ is longer than a newcomer can hold in their head.

    function_length.py SRC_DIR [MAX_LINES]   (default 150)

A function is what clang-format (the repository's style) lays out as a
line ending in ')' or a parameter list, then '{' alone at column 0, up to
the next '}' alone at column 0. Prints each one over the limit with its
length; ends with "N passed, N failed".
"""
import os
import sys


def functions(path):
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    start = None
    for i, line in enumerate(lines):
        if line == "{":
            j = i - 1
            while j >= 0 and "(" not in lines[j]:
                j -= 1
            start = (i, lines[j].strip() if j >= 0 else "?")
        elif line == "}" and start is not None:
            yield start[1], start[0] + 1, i - start[0] + 1
            start = None


def main():
    src = sys.argv[1]
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 150
    over, count = [], 0
    for root, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith(".c"):
                continue
            path = os.path.join(root, name)
            for head, line, n in functions(path):
                count += 1
                if n > limit:
                    over.append("%s:%d: %d lines (limit %d): %s"
                                % (os.path.relpath(path, src), line, n, limit, head[:80]))
    for o in over:
        print("too long: " + o)
    if not over:
        print("ok   %d functions in %s, none over %d lines" % (count, src, limit))
    print("%d passed, %d failed" % (0 if over else 1, 1 if over else 0))
    sys.exit(1 if over else 0)


if __name__ == "__main__":
    main()
