#!/usr/bin/env python3
"""Checks heldout7: expect.json parses, snippets occur on the right line, sizes and composition."""
import json, os, re, sys, glob
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
SECTIONS = ["## Situation", "## Decisions", "## Findings", "## Current State", "## Next Steps"]

def front(text):
    m = re.match(r"---\n(.*?)\n---\n", text, re.S)
    return dict(l.split(": ", 1) for l in m.group(1).split("\n")), text[m.end():]

errs, comp, claims = [], Counter(), []
dirs = sorted(d for d in glob.glob(os.path.join(HERE, "[0-9][0-9][0-9]-*")) if os.path.isdir(d))
for d in dirs:
    n = os.path.basename(d)
    try:
        e = json.load(open(os.path.join(d, "expect.json")))
    except Exception as x:
        errs.append(f"{n}: expect.json: {x}"); continue
    if set(e) != {"contradiction", "kind", "target_snippet", "source_snippet", "why"}:
        errs.append(f"{n}: keys {sorted(e)}")
    comp[e["kind"]] += 1
    t, s = (open(os.path.join(d, f)).read() for f in ("target.md", "source.md"))
    (tf, tb), (sf, sb) = front(t), front(s)
    for side, body in (("target", tb), ("source", sb)):
        pos = [body.find(h) for h in SECTIONS]
        if -1 in pos or pos != sorted(pos):
            errs.append(f"{n}: {side} sections {pos}")
        c = len(re.findall(r"\[src:", body))
        claims.append(c)
        if not 6 <= c <= 15:
            errs.append(f"{n}: {side} has {c} claims")
    if e["contradiction"]:
        if e["kind"].startswith("compatible") or not e["target_snippet"] or not e["source_snippet"]:
            errs.append(f"{n}: bad contradiction record")
        fmk = {"next-action": "next_action", "lifecycle": "status"}.get(e["kind"])
        for side, fm, body, snip in (("target", tf, tb, e["target_snippet"]), ("source", sf, sb, e["source_snippet"])):
            if fmk:
                if snip not in fm[fmk]:
                    errs.append(f"{n}: {side} snippet not in {fmk}: {snip!r}")
            else:
                hits = [l for l in body.split("\n") if snip in l]
                if not hits:
                    errs.append(f"{n}: {side} snippet not found: {snip!r}")
        if e["kind"] != "next-action" and tf["next_action"] != sf["next_action"]:
            errs.append(f"{n}: next_action differs")
        if e["kind"] != "lifecycle" and tf["status"] != sf["status"]:
            errs.append(f"{n}: status differs")
        if e["kind"] == "next-action" and tf["next_action"] == sf["next_action"]:
            errs.append(f"{n}: next-action pair with equal next_action")
        if e["kind"] == "lifecycle" and tf["status"] == sf["status"]:
            errs.append(f"{n}: lifecycle pair with equal status")
    else:
        if e["target_snippet"] is not None or e["source_snippet"] is not None:
            errs.append(f"{n}: compatible pair with snippets")
        if tf["status"] != sf["status"]:
            errs.append(f"{n}: status differs")
        if e["kind"] != "compatible:next-action-reworded" and tf["next_action"] != sf["next_action"]:
            errs.append(f"{n}: next_action differs")
    if not e["why"]:
        errs.append(f"{n}: no why")

for k, v in sorted(comp.items()):
    print(f"{k:40s} {v}")
c = sum(v for k, v in comp.items() if not k.startswith("compatible"))
print(f"pairs {len(dirs)}  contradictions {c}  compatible {len(dirs) - c}  claims/side {min(claims or [0])}-{max(claims or [0])}")
for x in errs:
    print("ERROR", x)
sys.exit(1 if errs else 0)
