#!/usr/bin/env python3
"""Check heldout8: expect.json parses, snippets occur, sections, claim counts, frontmatter rules.
Prints the composition. Run from this directory: python3 check.py"""
import collections, glob, json, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
SECTIONS = ["Situation", "Decisions", "Findings", "Current State", "Next Steps"]
CONTRA = ["opposite-direction", "mirrored-clauses", "next-action", "bare-decision",
          "textual-value", "number-words-and-units", "current-state", "lifecycle",
          "classic-choice", "numeric-value"]
COMPAT = ["restatement", "added-detail", "qualifier", "additive", "equal-units",
          "progress-log", "next-action-reworded"]
errors = []


def parse(path):
    text = open(path, encoding="utf-8").read()
    m = re.match(r"^---\n(.*?)\n---\n(.*)$", text, re.S)
    if not m:
        errors.append(f"{path}: no frontmatter")
        return {}, [], {}
    fm = dict(l.split(": ", 1) for l in m.group(1).splitlines())
    body = m.group(2).splitlines()
    heads = [l[3:] for l in body if l.startswith("## ")]
    claims, sec = 0, None
    para = False
    for l in body:
        if l.startswith("## "):
            sec, para = l[3:], False
            continue
        if sec not in ("Decisions", "Findings", "Current State"):
            continue
        if not l.strip():
            para = False
            continue
        if re.match(r"^\s*- ", l) or (l.startswith("|") and not re.match(r"^\|(---\|)+$", l)
                                       and "[src:" in l):
            claims += 1
            para = False
        elif not l.startswith("|") and not para:
            claims += 1
            para = True
    return fm, heads, {"claims": claims, "lines": body}


STOP = set("""a an the and or of to in on at for by with from is are was were be been it its this that
these those as so not no never only we our us they their them he she his her you your i all any each
per into than then there here but if after before until since because rationale decided agreed""".split())


def words(line):
    line = re.sub(r"\[src:[^\]]*\]", "", line)
    return {w for w in re.findall(r"[a-z0-9]+", line.lower()) if w not in STOP}


def overlap(a, b):
    wa, wb = words(a), words(b)
    return len(wa & wb) / max(1, min(len(wa), len(wb)))


def main():
    comp = collections.Counter()
    low = []
    dirs = sorted(d for d in glob.glob(os.path.join(HERE, "[0-9][0-9][0-9]-*")) if os.path.isdir(d))
    for d in dirs:
        name = os.path.basename(d)
        try:
            e = json.load(open(os.path.join(d, "expect.json"), encoding="utf-8"))
        except Exception as ex:
            errors.append(f"{name}: expect.json: {ex}")
            continue
        if set(e) != {"contradiction", "kind", "target_snippet", "source_snippet", "why"}:
            errors.append(f"{name}: expect.json keys {sorted(e)}")
        kind = e["kind"]
        comp[kind] += 1
        sides = {}
        for side, fn in (("target", "target.md"), ("source", "source.md")):
            fm, heads, info = parse(os.path.join(d, fn))
            sides[side] = (fm, info)
            core = [h for h in heads if h in SECTIONS]
            if core != SECTIONS:
                errors.append(f"{name}/{fn}: sections {heads}")
            if not 6 <= info.get("claims", 0) <= 15:
                errors.append(f"{name}/{fn}: {info.get('claims')} claims")
            if "status" not in fm or "next_action" not in fm:
                errors.append(f"{name}/{fn}: frontmatter {fm}")
            nxt = [l for l in info.get("lines", []) if re.match(r"^1\. ", l)]
            if not nxt or nxt[0][3:] != fm.get("next_action"):
                errors.append(f"{name}/{fn}: first Next Steps item is not next_action")
        (tfm, tinfo), (sfm, sinfo) = sides["target"], sides["source"]
        if e["contradiction"]:
            if kind not in CONTRA:
                errors.append(f"{name}: unknown kind {kind}")
            for side, key in (("target", "target_snippet"), ("source", "source_snippet")):
                snip = e[key]
                fm, info = sides[side]
                if not snip:
                    errors.append(f"{name}: empty {key}")
                elif kind == "next-action":
                    if snip != fm.get("next_action"):
                        errors.append(f"{name}: {key} is not the next_action value")
                elif kind == "lifecycle":
                    if snip != fm.get("status"):
                        errors.append(f"{name}: {key} is not the status value")
                elif not any(snip in l for l in info["lines"]):
                    errors.append(f"{name}: {key} not on a line: {snip!r}")
            if kind != "lifecycle":
                if kind == "next-action":
                    tl, sl = e["target_snippet"], e["source_snippet"]
                else:
                    tl = next((l for l in tinfo["lines"] if e["target_snippet"] in l), "")
                    sl = next((l for l in sinfo["lines"] if e["source_snippet"] in l), "")
                if overlap(tl, sl) < 0.5:
                    low.append(name[:3])
            if kind != "lifecycle" and tfm.get("status") != sfm.get("status"):
                errors.append(f"{name}: status differs")
            if kind != "next-action" and tfm.get("next_action") != sfm.get("next_action"):
                errors.append(f"{name}: next_action differs")
            if kind == "lifecycle" and tfm.get("status") == sfm.get("status"):
                errors.append(f"{name}: lifecycle pair with equal status")
            if kind == "next-action" and tfm.get("next_action") == sfm.get("next_action"):
                errors.append(f"{name}: next-action pair with equal next_action")
        else:
            if not kind.startswith("compatible:") or kind.split(":", 1)[1] not in COMPAT:
                errors.append(f"{name}: unknown kind {kind}")
            if e["target_snippet"] is not None or e["source_snippet"] is not None:
                errors.append(f"{name}: compatible pair with snippets")
            if tfm.get("status") != sfm.get("status"):
                errors.append(f"{name}: status differs")
            if kind != "compatible:next-action-reworded" and tfm.get("next_action") != sfm.get("next_action"):
                errors.append(f"{name}: next_action differs")
    print(f"{len(dirs)} pairs")
    print("| contradiction kind | pairs |\n|---|---|")
    for k in CONTRA:
        print(f"| {k} | {comp[k]} |")
    print(f"| **total** | **{sum(comp[k] for k in CONTRA)}** |\n")
    print("| compatible kind | pairs |\n|---|---|")
    for k in COMPAT:
        print(f"| compatible:{k} | {comp['compatible:' + k]} |")
    print(f"| **total** | **{sum(comp['compatible:' + k] for k in COMPAT)}** |")
    n = sum(comp[k] for k in CONTRA if k != "lifecycle")
    print(f"\n{len(low)} of the {n} contradictions outside lifecycle share fewer than half of the"
          f" content words of the shorter conflicting line: {' '.join(low)}")
    for e in errors:
        print("ERROR", e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
