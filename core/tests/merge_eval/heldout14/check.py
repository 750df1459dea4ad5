#!/usr/bin/env python3
"""Check heldout14 (copied from heldout13/check.py, itself adapted from heldout11): expect.json keys/kinds, snippets, sections, claim counts, frontmatter."""
import glob, json, os, re, collections
HERE = os.path.dirname(os.path.abspath(__file__))
KINDS = ["opposite-direction", "mirrored-clauses", "next-action", "bare-decision", "textual-value",
         "number-words-and-units", "current-state", "lifecycle", "classic-choice", "numeric-value"]
CKINDS = ["compatible:" + k for k in ["restatement", "added-detail", "qualifier", "additive",
          "equal-units", "progress-log", "next-action-reworded"]]
SECS = ["## Decisions", "## Findings", "## Current State", "## Next Steps", "## Open Risks"]
STOP = set("a an the and or of to in on for is are be it we our with at by from as this that not no".split())
def fm(text):
    m = re.match(r"---\nstatus: (.*)\nnext_action: (.*)\n---\n", text)
    assert m, "frontmatter"
    return m.group(1), m.group(2)
def claims(text):
    n, on = 0, False
    for line in text.splitlines():
        if line.startswith("## "):
            on = line in SECS[:3]; continue
        if not on or not line.strip() or line.startswith("###") or re.match(r"^\|[-| ]+\|$", line):
            continue
        if line.startswith("|") and not re.search(r"\[src:", line) and not re.search(r"\d", line):
            continue  # table header
        n += 1
    return n
def words(s): return {w for w in re.findall(r"[a-z0-9]+", s.lower()) if w not in STOP}
errors, comp, low = [], collections.Counter(), []
dirs = sorted(glob.glob(os.path.join(HERE, "[0-9][0-9][0-9]-*")))
for d in dirs:
    name = os.path.basename(d)
    try:
        e = json.load(open(os.path.join(d, "expect.json")))
    except Exception as x:
        errors.append(f"{name}: expect.json {x}"); continue
    if set(e) != {"contradiction", "kind", "target_snippet", "source_snippet", "why"}:
        errors.append(f"{name}: keys {sorted(e)}")
    k = e["kind"]; comp[k] += 1
    if k not in KINDS + CKINDS: errors.append(f"{name}: unknown kind {k}")
    if e["contradiction"] != (k in KINDS): errors.append(f"{name}: contradiction flag")
    t = open(os.path.join(d, "target.md")).read(); s = open(os.path.join(d, "source.md")).read()
    (ts_, tn), (ss_, sn) = fm(t), fm(s)
    for side, txt in (("target", t), ("source", s)):
        pos = [txt.find(x) for x in SECS]
        if -1 in pos or pos != sorted(pos): errors.append(f"{name}: {side} sections")
        c = claims(txt)
        if not 6 <= c <= 15: errors.append(f"{name}: {side} has {c} claims")
        nxt = txt.split("## Next Steps\n\n", 1)[1].splitlines()[0]
        if re.sub(r"^(1\. |- )", "", nxt) != fm(txt)[1]: errors.append(f"{name}: {side} first next step")
    if k == "next-action":
        if tn == sn or ts_ != ss_: errors.append(f"{name}: next-action frontmatter")
        if (e["target_snippet"], e["source_snippet"]) != (tn, sn): errors.append(f"{name}: next-action snippets")
    elif k == "lifecycle":
        if ts_ == ss_ or tn != sn: errors.append(f"{name}: lifecycle frontmatter")
        if (e["target_snippet"], e["source_snippet"]) != (ts_, ss_): errors.append(f"{name}: lifecycle snippets")
    elif k == "compatible:next-action-reworded":
        if tn == sn or ts_ != ss_: errors.append(f"{name}: reworded frontmatter")
    else:
        if ts_ != ss_ or tn != sn: errors.append(f"{name}: status/next_action differ")
    if k in KINDS and k not in ("next-action", "lifecycle"):
        lines = {}
        for side, txt, sn_, other in (("target", t, e["target_snippet"], s), ("source", s, e["source_snippet"], t)):
            hits = [l for l in txt.splitlines() if sn_ and sn_ in l]
            if len(hits) != 1: errors.append(f"{name}: {side} snippet on {len(hits)} lines"); continue
            if hits[0] in other.splitlines(): errors.append(f"{name}: {side} conflicting line also on other side")
            lines[side] = re.sub(r"\[src:[^\]]*\]", "", hits[0])
        if len(lines) == 2:
            a, b = words(lines["target"]), words(lines["source"])
            if len(a & b) < 0.5 * min(len(a), len(b)): low.append(name[:3])
    elif k in CKINDS and (e["target_snippet"] is not None or e["source_snippet"] is not None):
        errors.append(f"{name}: compatible pair with snippets")
print(f"{len(dirs)} pairs")
for k in KINDS + CKINDS: print(f"  {k}: {comp[k]}")
print(f"contradictions: {sum(comp[k] for k in KINDS)}, compatible: {sum(comp[k] for k in CKINDS)}")
print(f"conflicting lines sharing < half the content words: {len(low)} ({', '.join(low)})")
for x in errors: print("ERROR", x)
raise SystemExit(1 if errors else 0)
