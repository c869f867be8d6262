#!/usr/bin/env python3
"""The table of the time model's constants (docs/timing.md) is the list the
model loader reads, and what it says of each constant holds:

- its rows name exactly the [timing] keys of src/model/model.c;
- each probe it names exists, each component is a part of the predicted
  time (analysis/timing/ktime's names) or kroof;
- each card it says the constant was measured on (a bundled model id) sets
  it, and every other bundled model that sets it says, in the comment block
  above the key (and the keys right below that block) or on its own line,
  that it was not measured there.

    timing_constants.py SRC_ROOT

Ends with "N passed, N failed".
"""
import os
import re
import sys

BEGIN, END = "<!-- timing-constants: begin -->", "<!-- timing-constants: end -->"


def loader_keys(root):
    text = open(os.path.join(root, "src", "model", "model.c"), encoding="utf-8").read()
    return set(re.findall(r'\{\s*"timing",\s*"([a-z0-9_]+)"', text))


def part_names(root):
    text = open(os.path.join(root, "src", "analysis", "timing", "ktime.c"), encoding="utf-8").read()
    m = re.search(r"part_names\[[^\]]*\]\s*=\s*\{([^}]*)\}", text)
    return set(re.findall(r'"([a-z0-9]+)"', m.group(1))) if m else set()


def table(root):
    text = open(os.path.join(root, "docs", "timing.md"), encoding="utf-8").read()
    if BEGIN not in text or END not in text:
        raise SystemExit("docs/timing.md has no table between %s and %s" % (BEGIN, END))
    rows = {}
    for line in text.split(BEGIN, 1)[1].split(END, 1)[0].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 6 or not cells[0].startswith("`"):
            continue
        key = cells[0].strip("`")
        rows[key] = {"meaning": cells[1], "unit": cells[2], "probe": cells[3],
                     "cards": [c.strip() for c in cells[4].split(",") if c.strip()],
                     "component": cells[5]}
    return rows


def timing_sections(root):
    """{model id: {key: the comment lines above the key and its own line}}."""
    out = {}
    gpu = os.path.join(root, "models", "gpu")
    for name in sorted(os.listdir(gpu)):
        if not name.endswith(".ini"):
            continue
        # A comment block applies to the keys right below it, up to a blank
        # line or the next comment.
        section, notes, keys, after_key = None, [], {}, False
        for line in open(os.path.join(gpu, name), encoding="utf-8"):
            s = line.strip()
            if s.startswith("["):
                section, notes, after_key = s.strip("[]"), [], False
            elif s.startswith(";"):
                notes = [s] if after_key else notes + [s]
                after_key = False
            elif "=" in s:
                if section == "timing":
                    keys[s.split("=", 1)[0].strip()] = notes + [s]
                after_key = True
            else:
                notes, after_key = [], False
        if keys:
            out[name[:-4]] = keys
    return out


def main():
    root = sys.argv[1]
    keys, rows, parts = loader_keys(root), table(root), part_names(root) | {"kroof"}
    models = timing_sections(root)
    fails = []
    for k in sorted(keys - set(rows)):
        fails.append("%s: read by the model loader, not in docs/timing.md" % k)
    for k in sorted(set(rows) - keys):
        fails.append("%s: in docs/timing.md, not read by the model loader" % k)
    for k, r in sorted(rows.items()):
        if not all(r[f] for f in ("meaning", "unit", "probe", "component")) or not r["cards"]:
            fails.append("%s: a column is empty" % k)
        if r["component"] not in parts:
            fails.append("%s: component '%s' is not a part of the predicted time (%s)"
                         % (k, r["component"], ", ".join(sorted(parts))))
        for path in re.findall(r"`([^`]+\.(?:cu|sh|py))`", r["probe"]):
            if not os.path.exists(os.path.join(root, path)):
                fails.append("%s: probe %s does not exist" % (k, path))
        if not re.search(r"`[^`]+\.(?:cu|sh)`", r["probe"]):
            fails.append("%s: the probe names no program" % k)
        for card in r["cards"]:
            if card not in models or k not in models[card]:
                fails.append("%s: measured on %s, says the table, but models/gpu/%s.ini does not "
                             "set it" % (k, card, card))
        for model, set_keys in sorted(models.items()):
            if k in set_keys and model not in r["cards"]:
                if not any("not measured" in n for n in set_keys[k]):
                    fails.append("%s: models/gpu/%s.ini sets it, the table says it was measured "
                                 "on %s only, and the comment above it does not say 'not "
                                 "measured'" % (k, model, ", ".join(r["cards"])))
    for model, set_keys in sorted(models.items()):
        for k in sorted(set(set_keys) - keys):
            fails.append("models/gpu/%s.ini: [timing] key %s is not read by the loader" % (model, k))
    for f in fails:
        print("FAIL " + f)
    if not fails:
        print("ok   docs/timing.md lists the %d [timing] constants, each with its probe, unit, "
              "cards and component; %d bundled models label every borrowed value"
              % (len(rows), len(models)))
    print("%d passed, %d failed" % (0 if fails else 1, len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
