#!/usr/bin/env python3
"""The include order of src/: a file may include headers of its own folder
and of folders of a lower rank, never of a higher rank or of a peer of the
same rank. A folder split into rooms (analysis/symbolic/, analysis/warp/...)
keeps the same rule among its rooms. The ranks are read from the tables in
src/README.md (the one place they are written).

    layers.py SRC_DIR            check the tree; one line per break, exit 1
    layers.py SRC_DIR --self-test
                                 also plant each break the house issue
                                 named in a copy of the tree and require
                                 that every one is caught

Ends with "N passed, N failed".
"""
import os
import re
import shutil
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
ROW = re.compile(r"^\|\s*(\d+)\s*\|\s*`([^`]+)`\s*\|")


def read_ranks(src):
    """{folder: rank} from the table of src/README.md ("main.c" for main),
    and {folder: {room: rank}} from the tables of the folders' rooms (rows
    naming `folder/room/`)."""
    ranks, rooms = {}, {}
    with open(os.path.join(src, "README.md"), encoding="utf-8") as f:
        for line in f:
            m = ROW.match(line)
            if not m:
                continue
            name = m.group(2).rstrip("/")
            if "/" in name:
                folder, room = name.split("/", 1)
                rooms.setdefault(folder, {})[room] = int(m.group(1))
            else:
                ranks[name] = int(m.group(1))
    if not ranks:
        raise SystemExit("layers: no rank table in %s/README.md" % src)
    return ranks, rooms


def sources(src):
    for root, _, files in os.walk(src):
        for name in sorted(files):
            if name.endswith((".c", ".h")):
                yield os.path.relpath(os.path.join(root, name), src)


def layer_of(rel):
    parts = rel.split(os.sep)
    return parts[0] if len(parts) > 1 else rel


def room_of(path, layer, rooms):
    """The room of a path under a folder with rooms ('analysis/warp/bank.h'
    -> 'warp'); None for a folder without rooms; '' where the path lies in
    no room of its folder."""
    if layer not in rooms:
        return None
    parts = path.split("/")
    return parts[1] if len(parts) > 2 and parts[1] in rooms[layer] else ""


def room_breaks(rel, line, layer, target, rooms):
    """The include of target (of the same folder as rel) against the order
    of the folder's rooms."""
    mine, theirs = room_of(rel.replace(os.sep, "/"), layer, rooms), room_of(target, layer, rooms)
    ranks = rooms[layer]
    if mine == "":
        return []  # breaks() reports the file itself
    if theirs == "":
        return ["%s:%d: includes '%s', which lies in no room of %s/" % (rel, line, target, layer)]
    if mine == theirs or ranks[theirs] < ranks[mine]:
        return []
    if ranks[theirs] == ranks[mine]:
        return ["%s:%d: %s/%s includes '%s' of its peer room %s/%s (both rank %d)"
                % (rel, line, layer, mine, target, layer, theirs, ranks[mine])]
    return ["%s:%d: %s/%s (rank %d) includes '%s' of a higher room, %s/%s (rank %d)"
            % (rel, line, layer, mine, ranks[mine], target, layer, theirs, ranks[theirs])]


def breaks(src, ranks, rooms):
    """Every include of a higher or peer layer or room, as 'file:line: message'."""
    out = []
    for rel in sources(src):
        layer = layer_of(rel)
        if layer not in ranks:
            out.append("%s: folder '%s' has no rank in src/README.md" % (rel, layer))
            continue
        if room_of(rel.replace(os.sep, "/"), layer, rooms) == "":
            out.append("%s: lies in no room of %s/ (src/README.md names them)" % (rel, layer))
        text = open(os.path.join(src, rel), encoding="utf-8", errors="replace").read()
        for m in INCLUDE.finditer(text):
            target = m.group(1)
            if "/" not in target:
                continue  # config.h, gpulint_commit.h: generated, no layer
            to = target.split("/")[0]
            line = text.count("\n", 0, m.start()) + 1
            if to == layer:
                if layer in rooms:
                    out += room_breaks(rel, line, layer, target, rooms)
                continue
            if to in rooms and room_of(target, to, rooms) == "":
                out.append("%s:%d: includes '%s', which lies in no room of %s/"
                           % (rel, line, target, to))
            if to not in ranks:
                out.append("%s:%d: includes '%s' of folder '%s', which has no rank"
                           % (rel, line, target, to))
            elif ranks[to] > ranks[layer]:
                out.append("%s:%d: %s (rank %d) includes '%s' of a higher layer, %s (rank %d)"
                           % (rel, line, layer, ranks[layer], target, to, ranks[to]))
            elif ranks[to] == ranks[layer]:
                out.append("%s:%d: %s includes '%s' of its peer %s (both rank %d)"
                           % (rel, line, layer, target, to, ranks[to]))
    return out


# The breaks the house issue found, each planted alone in a copy of the tree:
# (file it goes into, the include added). Each must be reported.
PLANTED = [
    ("run/pipeline.c", "cli/cli.h"),
    ("run/unit.c", "cli/target_opts.h"),
    ("analysis/check/check_rules.h", "input/baseline_json.h"),
    ("analysis/occupancy/kernel_eval.h", "input/ptxas.h"),
    ("gpu/probe.c", "verify/judge.h"),
    ("gpu/probe.h", "verify/manifest.h"),
    ("verify/verify.c", "cli/cli.h"),
    ("report/kernel_roofline.c", "run/report.h"),
    ("input/ptxas.c", "cusrc/cusrc.h"),  # peers
    ("analysis/occupancy/occ.c", "gpu/gpurt.h"),  # the analyses must build alone
    # analysis/'s rooms: symbolic values below the access analyses below the
    # memory model below the time model; calculators and check rules on top.
    ("analysis/symbolic/expr.h", "analysis/warp/bank.h"),
    ("analysis/symbolic/lanes.c", "analysis/occupancy/occ.h"),  # peers
    ("analysis/warp/bank.c", "analysis/memory/traffic.h"),
    ("analysis/memory/footprint.c", "analysis/timing/loadlat.h"),
    ("analysis/timing/ktime.c", "analysis/calc/roof_calc.h"),
    ("analysis/calc/bank_calc.c", "analysis/check/check_rules.h"),  # peers
    ("report/kernel_roofline.c", "analysis/ktime.h"),  # a path in no room
]


def self_test(src, ranks, rooms):
    ok = fail = 0
    with tempfile.TemporaryDirectory() as tmp:
        for rel, inc in PLANTED:
            copy = os.path.join(tmp, "src")
            if os.path.exists(copy):
                shutil.rmtree(copy)
            shutil.copytree(src, copy, ignore=shutil.ignore_patterns("*.o", "*.in"))
            path = os.path.join(copy, rel)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            with open(path, "w", encoding="utf-8") as f:
                f.write('#include "%s"\n' % inc + text)
            found = [b for b in breaks(copy, ranks, rooms) if b.startswith(rel + ":1:")]
            if found:
                ok += 1
                print("ok   planted %s in %s: %s" % (inc, rel, found[0].split(": ", 1)[1]))
            else:
                fail += 1
                print("FAIL planted %s in %s: not reported" % (inc, rel))
    return ok, fail


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    src = sys.argv[1]
    ranks, rooms = read_ranks(src)
    found = breaks(src, ranks, rooms)
    for b in found:
        print("layers: " + b)
    passed, failed = (0, 1) if found else (1, 0)
    if not found:
        print("ok   %d files of %d layers and %d rooms keep the order of src/README.md"
              % (sum(1 for _ in sources(src)), len(ranks),
                 sum(len(r) for r in rooms.values())))
    if "--self-test" in sys.argv[2:]:
        p, f = self_test(src, ranks, rooms)
        passed += p
        failed += f
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
