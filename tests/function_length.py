#!/usr/bin/env python3
"""No function in src/ is longer than a newcomer can hold in their head,
and no file longer than one can read through.

    function_length.py SRC_DIR [MAX_LINES [MAX_FILE_LINES]]   (150, 1500)

A function is what clang-format (the repository's style) lays out as a
line ending in ')' or a parameter list, then '{' alone at column 0, up to
the next '}' alone at column 0. Prints each function and each .c or .h
file over its limit with its length; ends with "N passed, N failed".
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
    file_limit = int(sys.argv[3]) if len(sys.argv) > 3 else 1500
    over, long_files, count, n_files = [], [], 0, 0
    for root, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(root, name)
            n_files += 1
            with open(path, encoding="utf-8", errors="replace") as f:
                n_lines = sum(1 for _ in f)
            if n_lines > file_limit:
                long_files.append("%s: %d lines (limit %d)"
                                  % (os.path.relpath(path, src), n_lines, file_limit))
            if not name.endswith(".c"):
                continue
            for head, line, n in functions(path):
                count += 1
                if n > limit:
                    over.append("%s:%d: %d lines (limit %d): %s"
                                % (os.path.relpath(path, src), line, n, limit, head[:80]))
    for o in over:
        print("too long: " + o)
    for o in long_files:
        print("file too long: " + o)
    if not over:
        print("ok   %d functions in %s, none over %d lines" % (count, src, limit))
    if not long_files:
        print("ok   %d files in %s, none over %d lines" % (n_files, src, file_limit))
    failed = bool(over) + bool(long_files)
    print("%d passed, %d failed" % (2 - failed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
