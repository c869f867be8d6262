#!/usr/bin/env python3
"""No two files of src/ call each other, directly or round a circle: the
functions each compiled file defines and calls are read from its object
(nm), and the graph of 'file A calls a function file B defines' must have
no cycle. Recursion through several files goes through a pointer that the
upper file installs (the body walker's walk_expr and walk_body).

    file_cycles.py BUILD_ROOT SRC_DIR [--self-test]

--self-test also checks the cycle search on a planted graph. Ends with
"N passed, N failed".
"""
import os
import subprocess
import sys


def objects(build, src):
    """{object path: source path relative to src} for libgpulint's objects."""
    objdir = os.path.join(build, "src", "libgpulint.a.p")
    by_name = {}
    for root, _, files in os.walk(src):
        for f in files:
            if f.endswith(".c"):
                rel = os.path.relpath(os.path.join(root, f), src)
                by_name[rel.replace(os.sep, "_") + ".o"] = rel
    out = {}
    for f in sorted(os.listdir(objdir)):
        if f in by_name:
            out[os.path.join(objdir, f)] = by_name[f]
    return out


def call_graph(objs):
    """{file: set of files whose functions or data it uses}."""
    defs, uses = {}, {}
    for obj, rel in objs.items():
        text = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
        uses[rel] = set()
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TDBR":
                defs[parts[2]] = rel
            elif len(parts) == 2 and parts[0] == "U":
                uses[rel].add(parts[1])
    return {f: {defs[s] for s in syms if s in defs and defs[s] != f} for f, syms in uses.items()}


def cycles(graph):
    """The strongly connected components of more than one file (Tarjan's
    algorithm, iterative), each sorted."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def self_test():
    planted = {"a.c": {"b.c"}, "b.c": {"c.c"}, "c.c": {"a.c", "d.c"}, "d.c": set(),
               "e.c": {"f.c"}, "f.c": {"e.c"}, "g.c": {"a.c"}}
    found = cycles(planted)
    want = [["a.c", "b.c", "c.c"], ["e.c", "f.c"]]
    if sorted(found) == want:
        print("ok   planted circles a->b->c->a and e<->f found, nothing else")
        return 1, 0
    print("FAIL planted circles: found %s, want %s" % (found, want))
    return 0, 1


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    build, src = sys.argv[1], sys.argv[2]
    objs = objects(build, src)
    if len(objs) < 50:
        print("FAIL found only %d objects of src/ under %s" % (len(objs), build))
        print("0 passed, 1 failed")
        return 1
    found = cycles(call_graph(objs))
    passed, failed = 0, 0
    for comp in found:
        print("FAIL these files call each other in a circle: " + " ".join(comp))
        failed += 1
    if not found:
        print("ok   %d files of src/ call one another without a circle" % len(objs))
        passed += 1
    if "--self-test" in sys.argv[3:]:
        p, f = self_test()
        passed += p
        failed += f
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
