#!/usr/bin/env python3
"""Render spec-*.txt into NNN-name/ pairs. Lines are verbatim; {p} -> side provenance.
Copied from heldout13/gen.py (itself adapted from heldout11): further Next Steps lines get their marker here, and the pairs
are numbered in a fixed shuffled order (not spec order) so kinds are interleaved."""
import glob, json, os, random, re, shutil, hashlib
HERE = os.path.dirname(os.path.abspath(__file__))
SEC = {"D": "Decisions", "F": "Findings", "C": "Current State", "N": "Next Steps", "R": "Open Risks"}
def prov(side, key, i):
    h = hashlib.sha1(f"{key}{side}{i}".encode()).hexdigest()
    tag = f"art_{'41' if side=='t' else '42'}{h[:6]}"
    n = int(h[5:8], 16) % 90 + 1
    return f"[src:{tag}#L{n}-L{n+int(h[8],16)%7}]" if int(h[9],16) % 3 else f"[src:{tag}]"
def parse():
    pairs, cur = [], None
    for f in sorted(glob.glob(os.path.join(HERE, "spec-*.txt"))):
        for raw in open(f, encoding="utf-8"):
            line = raw.rstrip("\n")
            if line.startswith("@@ "):
                name, kind, title = [x.strip() for x in line[3:].split("|")]
                cur = dict(name=name, kind=kind, title=title, body={}, sec=None, ts=None, ss=None)
                pairs.append(cur); continue
            if cur is None or not line.strip() and cur["sec"] is None: continue
            m = re.match(r"^(st|nx|ts|ss|why|S): (.*)$", line)
            if m and cur["sec"] is None:
                cur[m.group(1)] = m.group(2); continue
            if re.match(r"^# [DFCNR]$", line):
                cur["sec"] = line[2]; cur["body"].setdefault(cur["sec"], []); continue
            if line[:2] in ("= ", "< ", "> ") or line in ("=", "<", ">"):
                cur["body"][cur["sec"]].append((line[0], line[2:]))
    return pairs
def render(p, side, idx):
    st = p["st"].split(" | "); nx = p["nx"].split(" | ")
    s = st[0] if side == "t" or len(st) == 1 else st[1]
    n = nx[0] if side == "t" or len(nx) == 1 else nx[1]
    out = ["---", f"status: {s}", f"next_action: {n}", "---", f"# {p['title']}", "", "## Situation", "", p["S"], ""]
    cnt = [0]
    def sub(m):
        cnt[0] += 1; return prov(side, p["name"], cnt[0])
    for k in "DFCNR":
        out.append(f"## {SEC[k]}"); out.append("")
        num = 1
        if k == "N":
            out.append(("1. " if idx % 2 else "- ") + n)
        for mark, text in p["body"].get(k, []):
            if mark == "=" or (mark == "<") == (side == "t"):
                if k == "N" and text:
                    num += 1; text = (f"{num}. " if idx % 2 else "- ") + text
                out.append(re.sub(r"\{p\}", sub, text))
        while out[-1] == "": out.pop()
        out.append("")
    # keep paragraphs, lists and tables apart so Markdown does not join them
    def kind(l):
        if not l.strip() or l.startswith("#") or l == "---": return None
        if l.startswith("|"): return "table"
        if re.match(r"^(\s*[-*] |\s*\d+\. |  )", l): return "list"
        return "para"
    res = []
    for l in out:
        if res and kind(l) and kind(res[-1]) and kind(l) != kind(res[-1]) and not (kind(res[-1]) == "para" and res[-1].endswith(":") and kind(l) == "list"):
            res.append("")
        res.append(l)
    return "\n".join(res)
def main():
    for d in glob.glob(os.path.join(HERE, "[0-9][0-9][0-9]-*")): shutil.rmtree(d)
    pairs = parse(); random.Random(14).shuffle(pairs)
    for i, p in enumerate(pairs, 1):
        d = os.path.join(HERE, f"{i:03d}-{p['name']}"); os.makedirs(d)
        for side, fn in (("t", "target.md"), ("s", "source.md")):
            open(os.path.join(d, fn), "w").write(render(p, side, i))
        c = not p["kind"].startswith("compatible")
        if p["kind"] == "next-action":
            p["ts"], p["ss"] = p["nx"].split(" | ")
        if p["kind"] == "lifecycle":
            p["ts"], p["ss"] = p["st"].split(" | ")
        e = dict(contradiction=c, kind=p["kind"], target_snippet=p["ts"] if c else None,
                 source_snippet=p["ss"] if c else None, why=p["why"])
        open(os.path.join(d, "expect.json"), "w").write(json.dumps(e, indent=2, ensure_ascii=False) + "\n")
if __name__ == "__main__": main()
