#!/usr/bin/env python3
"""Every relative link of the README and docs/ reaches a file of the tree,
and every #anchor a heading of its file (GitHub's slugs), so nothing the
README moved out of itself is lost behind a dead link.

    doc_links.py SRC_ROOT

Ends with "N passed, N failed".
"""
import os
import re
import sys

LINK = re.compile(r"(?<!`)\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```")


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path):
    out, seen, fenced = set(), {}, False
    for line in open(path, encoding="utf-8"):
        if FENCE.match(line):
            fenced = not fenced
        if fenced or not line.startswith("#"):
            continue
        base = slug(line.lstrip("#"))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else "%s-%d" % (base, n))
    return out


def links(path):
    fenced = False
    for no, line in enumerate(open(path, encoding="utf-8"), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        for m in LINK.finditer(line):
            yield no, m.group(1)


def main():
    root = sys.argv[1]
    docs = [os.path.join(root, "README.md")] + sorted(
        os.path.join(root, "docs", f) for f in os.listdir(os.path.join(root, "docs"))
        if f.endswith(".md"))
    fails, count = [], 0
    for doc in docs:
        for no, target in links(doc):
            if re.match(r"^[a-z]+:", target):
                continue  # http:, mailto:
            count += 1
            path, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(doc), path)) if path else doc
            where = "%s:%d" % (os.path.relpath(doc, root), no)
            if not os.path.exists(dest):
                fails.append("%s: %s: no such file" % (where, target))
            elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                fails.append("%s: %s: no heading '#%s' in %s"
                             % (where, target, anchor, os.path.relpath(dest, root)))
    for f in fails:
        print("FAIL " + f)
    if not fails:
        print("ok   %d relative links of README.md and docs/ reach their files and headings" % count)
    print("%d passed, %d failed" % (0 if fails else 1, len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
