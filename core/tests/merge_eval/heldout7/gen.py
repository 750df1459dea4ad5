#!/usr/bin/env python3
"""Renders the pairs of heldout7 from the spec-*.txt files (authoring aid only).

Spec format, one block per pair:
  === NNN-name | kind
  title: / ttitle: / stitle:    dossier name (both / target / source)
  status: / tstatus: / sstatus:
  next: / tnext: / snext:       next_action (also the first Next Steps item)
  lead: / tlead: / slead:       optional frontmatter lead
  tsnip: / ssnip: / why:        expect.json fields (contradiction pairs)
  why:                          (compatible pairs too)
  sit: / tsit: / ssit:          Situation paragraph
  ## Section                    then lines "B text", "T text", "S text" (both / target / source)
Provenance is appended to claim lines outside Situation and Next Steps, unless the line
already holds [src: or ends with '@'; '{src}' inside a line is replaced by a marker.
"""
import json, os, random, re, sys, glob

HERE = os.path.dirname(os.path.abspath(__file__))
ORDER = ["Situation", "Decisions", "Findings", "Current State", "Next Steps"]
SUFFIX = ["notes", "call", "thread", "sheet", "log", "email", "review", "minutes", "report", "walkround", "ticket", "survey"]

def parse(text):
    blocks = re.split(r"^=== ", text, flags=re.M)[1:]
    out = []
    for b in blocks:
        lines = b.rstrip("\n").split("\n")
        name, kind = [x.strip() for x in lines[0].split("|")]
        meta, secs, cur = {}, [], None
        for ln in lines[1:]:
            if not ln.strip() and cur is None:
                continue
            if ln.startswith("## "):
                cur = (ln[3:].strip(), [])
                secs.append(cur)
            elif cur is None:
                k, v = ln.split(":", 1)
                meta[k.strip()] = v.strip()
            elif ln.strip() in ("B", "T", "S"):
                cur[1].append((ln.strip(), ""))
            elif ln.strip():
                tag, rest = ln[0], ln[2:] if len(ln) > 2 else ""
                assert tag in "BTS" and ln[1] == " ", (name, ln)
                cur[1].append((tag, rest))
        out.append((name, kind, meta, secs))
    return out

def side_val(meta, key, side):
    return meta.get(side + key, meta.get(key))

def render(name, kind, meta, secs, side):
    rnd = random.Random(name + side)
    title = side_val(meta, "title", side)
    words = [w for w in re.findall(r"[a-z]+", title.lower()) if len(w) > 3 and w not in ("with", "from", "for", "the")] or ["misc"]
    base = "art_0" + rnd.choice(["1k", "1m", "2a", "1jz", "3p", "1h"]) + "".join(rnd.choice("0123456789abcdefghjkmnpqrstvwxyz") for _ in range(3))
    arts = [base + rnd.choice(words) + rnd.choice(SUFFIX) for _ in range(3)]
    line = [rnd.randint(2, 30)]
    def marker():
        a = rnd.choice(arts)
        if rnd.random() < 0.18:
            return f"[src:{a}]"
        s = line[0] + rnd.randint(1, 25); e = s + rnd.randint(0, 8); line[0] = e
        return f"[src:{a}#L{s}-L{e}]"
    fm = ["---", f"status: {side_val(meta, 'status', side)}"]
    lead = side_val(meta, "lead", side)
    if lead: fm.append(f"lead: {lead}")
    nxt = side_val(meta, "next", side)
    fm.append(f"next_action: {nxt}")
    fm.append("---")
    out = fm + [f"# {side_val(meta, 'title', side)}", "", "## Situation", "", side_val(meta, "sit", side), ""]
    secmap = {n: ls for n, ls in secs}
    names = [n for n in ORDER if n not in ("Situation",)] + [n for n, _ in secs if n not in ORDER]
    for sec in names:
        ls = [t for tag, t in secmap.get(sec, []) if tag in ("B", side.upper())]
        if sec == "Next Steps":
            out += ["## Next Steps", "", f"1. {nxt}"]
            for i, t in enumerate(ls):
                out.append(f"{i+2}. {t}")
            out.append("")
            continue
        if not ls and sec not in ORDER:
            continue
        out += [f"## {sec}", ""]
        prev_para = False
        for t in ls:
            if t == "":
                out.append("")
                prev_para = False
                continue
            if "{src}" in t:
                t = t.replace("{src}", marker())
            elif t.endswith("@"):
                t = t[:-1].rstrip()
            elif "[src:" not in t and not t.startswith("|"):
                t = t + " " + marker()
            is_para = not (t.startswith("-") or t.startswith(" ") or t.startswith("|"))
            if is_para and out[-1] != "" :
                out.append("")
            elif not is_para and prev_para:
                out.append("")
            out.append(t)
            prev_para = is_para
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"

def main():
    for f in sorted(glob.glob(os.path.join(HERE, "spec-*.txt"))):
        for name, kind, meta, secs in parse(open(f).read()):
            d = os.path.join(HERE, name)
            os.makedirs(d, exist_ok=True)
            for side, fn in (("t", "target.md"), ("s", "source.md")):
                open(os.path.join(d, fn), "w").write(render(name, kind, meta, secs, side))
            contra = not kind.startswith("compatible:")
            exp = {"contradiction": contra, "kind": kind,
                   "target_snippet": meta.get("tsnip") if contra else None,
                   "source_snippet": meta.get("ssnip") if contra else None,
                   "why": meta["why"]}
            open(os.path.join(d, "expect.json"), "w").write(json.dumps(exp, indent=2, ensure_ascii=False) + "\n")

if __name__ == "__main__":
    main()
