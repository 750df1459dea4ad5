#!/usr/bin/env python3
"""Check heldout10: expect.json shape, snippets, sections, claim counts, status/next_action
agreement, and print the composition. Run from this directory: python3 check.py"""
import collections, glob, json, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ORDER = ["Situation", "Decisions", "Findings", "Current State", "Next Steps"]
KINDS = ["opposite-direction", "mirrored-clauses", "next-action", "bare-decision", "textual-value",
         "number-words-and-units", "current-state", "lifecycle", "classic-choice", "numeric-value"]
COMPAT = ["restatement", "added-detail", "qualifier", "additive", "equal-units", "progress-log",
          "next-action-reworded"]

def parse(path):
    text = open(path, encoding="utf-8").read()
    m = re.match(r"---\n(.*?)\n---\n(.*)", text, re.S)
    assert m, f"{path}: no frontmatter"
    fm = dict(l.split(": ", 1) for l in m.group(1).split("\n"))
    body = m.group(2)
    secs, cur = collections.OrderedDict(), None
    for ln in body.split("\n"):
        h = re.match(r"^## (.+)$", ln)
        if h:
            cur = h.group(1)
            secs[cur] = []
        elif cur:
            secs[cur].append(ln)
    return fm, secs, text

def claims(lines):
    n, in_para = 0, False
    for ln in lines:
        s = ln.strip()
        if not s or s.startswith("#"):
            in_para = False
            continue
        if s.startswith("|"):
            in_para = False
            if re.match(r"^\|[-| :]+\|$", s):
                continue
            n += 1  # header rows counted below are subtracted
            continue
        if re.match(r"^(- |\d+\. )", s):
            in_para = False
            n += 1
            continue
        n += 1  # each paragraph line here is one claim (the states are written one claim a line)
    # table header rows: the row directly above a separator row
    for i, ln in enumerate(lines[1:], 1):
        if re.match(r"^\|[-| :]+\|$", ln.strip()) and lines[i - 1].strip().startswith("|"):
            n -= 1
    return n

errors, comp, low_overlap = [], collections.Counter(), []
dirs = sorted(d for d in glob.glob(os.path.join(HERE, "[0-9][0-9][0-9]-*")) if os.path.isdir(d))
for d in dirs:
    name = os.path.basename(d)
    def err(msg):
        errors.append(f"{name}: {msg}")
    try:
        exp = json.load(open(os.path.join(d, "expect.json"), encoding="utf-8"))
    except Exception as e:
        err(f"expect.json: {e}")
        continue
    if set(exp) != {"contradiction", "kind", "target_snippet", "source_snippet", "why"}:
        err(f"keys {sorted(exp)}")
    kind, contra = exp["kind"], exp["contradiction"]
    comp[kind] += 1
    if contra and kind not in KINDS:
        err(f"unknown kind {kind}")
    if not contra and (not kind.startswith("compatible:") or kind.split(":", 1)[1] not in COMPAT):
        err(f"bad compatible kind {kind}")
    if not exp["why"] or "\n" in exp["why"]:
        err("why must be one line")
    tfm, tsec, ttext = parse(os.path.join(d, "target.md"))
    sfm, ssec, stext = parse(os.path.join(d, "source.md"))
    for side, fm, sec in (("target", tfm, tsec), ("source", sfm, ssec)):
        keys = list(sec)
        if [k for k in keys if k in ORDER] != ORDER:
            err(f"{side}: sections {keys}")
        n = sum(claims(sec.get(k, [])) for k in ("Decisions", "Findings", "Current State"))
        if not 6 <= n <= 15:
            err(f"{side}: {n} claims")
        first = next((l for l in sec["Next Steps"] if l.strip()), "")
        if re.sub(r"^(- |\d+\. )", "", first) != fm["next_action"]:
            err(f"{side}: first Next Steps item is not next_action")
    if contra:
        ts, ss = exp["target_snippet"], exp["source_snippet"]
        if not ts or not ss:
            err("contradiction without snippets")
            continue
        if kind in ("next-action", "lifecycle"):
            key = "next_action" if kind == "next-action" else "status"
            if ts not in tfm[key] or ss not in sfm[key]:
                err(f"snippet not in frontmatter {key}")
            if tfm[key] == sfm[key]:
                err(f"{key} equal on both sides")
            other = "status" if key == "next_action" else "next_action"
            if tfm[other] != sfm[other]:
                err(f"{other} differs")
        else:
            if tfm != sfm:
                err("frontmatter differs")
            tl = [l for l in ttext.split("\n") if ts in l and not l.startswith(("status:", "next_action:"))]
            sl = [l for l in stext.split("\n") if ss in l and not l.startswith(("status:", "next_action:"))]
            if len(tl) != 1:
                err(f"target snippet on {len(tl)} lines")
            if len(sl) != 1:
                err(f"source snippet on {len(sl)} lines")
            if tl and tl[0] in stext.split("\n"):
                err("target conflicting line also in source")
            if sl and sl[0] in ttext.split("\n"):
                err("source conflicting line also in target")
            if tl and sl:
                words = lambda s: set(w for w in re.findall(r"[a-z0-9]+", re.sub(r"\[src:[^\]]*\]", "", s.lower())) if len(w) > 2)
                a, b = words(tl[0]), words(sl[0])
                short = min(a, b, key=len)
                if short and len(a & b) / len(short) < 0.5:
                    low_overlap.append(name)
    else:
        if exp["target_snippet"] is not None or exp["source_snippet"] is not None:
            err("compatible pair with snippets")
        if kind == "compatible:next-action-reworded":
            if tfm["next_action"] == sfm["next_action"]:
                err("next_action not reworded")
            if tfm["status"] != sfm["status"]:
                err("status differs")
        elif tfm != sfm:
            err("frontmatter differs")

print(f"{len(dirs)} pairs")
print("| contradiction kind | pairs |\n|---|---|")
for k in KINDS:
    print(f"| {k} | {comp[k]} |")
print(f"| **total** | **{sum(comp[k] for k in KINDS)}** |\n")
print("| compatible kind | pairs |\n|---|---|")
for k in COMPAT:
    print(f"| compatible:{k} | {comp['compatible:' + k]} |")
print(f"| **total** | **{sum(comp['compatible:' + k] for k in COMPAT)}** |\n")
print(f"contradictions (outside lifecycle/next-action) whose conflicting lines share fewer than half "
      f"of the shorter line's content words: {len(low_overlap)}: {' '.join(n[:3] for n in low_overlap)}")
if errors:
    print("\n".join(errors))
    sys.exit(1)
print("OK")
