#!/usr/bin/env python3
"""Render spec-*.txt into NNN-name/{target.md,source.md,expect.json}.

Spec format, per pair:
  @@ NNN-name | kind | Title
  status: <both>            or  status: <target> | <source>
  next: <both>              or  next: <target> | <source>
  tsnip: / ssnip: / why:
  S: situation text (both sides), S<: / S>: side-specific
  # D / # F / # C / # N / # Q   sections (Decisions, Findings, Current State,
                                 further Next Steps, Open Questions)
  = line   both sides;  < line  target only;  > line  source only
  `{p}` in a line is replaced by side-specific provenance.
Lines are written verbatim (markdown: lists, nested items, tables, paragraphs).
"""
import glob, json, os, re, shutil, hashlib

HERE = os.path.dirname(os.path.abspath(__file__))
SECT = {"D": "Decisions", "F": "Findings", "C": "Current State", "N": "Next Steps", "Q": "Open Questions"}

def prov(side, slug, n, key):
    h = int(hashlib.sha1(f"{slug}{n}{side}{key}".encode()).hexdigest(), 16)
    pre = "art_01" if side == "t" else "art_02"
    words = re.findall(r"[a-z]+", slug)
    w = words[(h >> 3) % len(words)] if words else "note"
    name = f"{pre}{['jz8', 'kq3', 'mv7', 'r2x', 'tw5'][h % 5]}{w}"
    if (h >> 7) % 3 == 0:
        return f"[src:{name}]"
    a = 2 + (h >> 9) % 90
    return f"[src:{name}#L{a}-L{a + (h >> 13) % 12}]"

def parse(text):
    pairs = []
    for block in re.split(r"^@@ ", text, flags=re.M)[1:]:
        lines = block.rstrip("\n").split("\n")
        name, kind, title = [x.strip() for x in lines[0].split("|")]
        p = {"name": name, "kind": kind, "title": title, "meta": {}, "sit": {"t": [], "s": []}, "sec": []}
        cur = None
        for ln in lines[1:]:
            if cur is None and re.match(r"^(status|next|tsnip|ssnip|why):", ln):
                k, v = ln.split(":", 1)
                p["meta"][k] = v.strip()
            elif re.match(r"^S[<>]?: ", ln):
                tag, v = ln.split(": ", 1)
                sides = {"S": "ts", "S<": "t", "S>": "s"}[tag]
                for sd in sides:
                    p["sit"][sd].append(v)
            elif re.match(r"^# [DFCNQ]\b", ln):
                cur = ln[2]
                p["sec"].append((cur, []))
            elif ln.strip() == "":
                if cur:
                    p["sec"][-1][1].append(("=", ""))
            elif ln[:2] in ("= ", "< ", "> ") or ln in ("=", "<", ">"):
                p["sec"][-1][1].append((ln[0], ln[2:]))
            else:
                raise SystemExit(f"{name}: bad line {ln!r}")
        pairs.append(p)
    return pairs

def two(v):
    if v is None:
        return None, None
    if " | " in v:
        a, b = v.split(" | ", 1)
        return a.strip(), b.strip()
    return v, v

def render(p, side):
    st = two(p["meta"]["status"])[0 if side == "t" else 1]
    na = two(p["meta"]["next"])[0 if side == "t" else 1]
    out = ["---", f"status: {st}", f"next_action: {na}", "---", f"# {p['title']}", "", "## Situation", ""]
    out += [s for s in p["sit"][side]]
    secs = {}
    for k, body in p["sec"]:
        secs.setdefault(k, []).extend(body)
    numbered = int(hashlib.sha1(p["name"].encode()).hexdigest(), 16) % 2 == 0
    n = 0
    for k in ["D", "F", "C", "N", "Q"]:
        mine = [l for m, l in secs.get(k, []) if m in ("=", {"t": "<", "s": ">"}[side]) and l]
        if k == "Q" and not mine:
            continue
        out += ["", f"## {SECT[k]}", ""]
        body = []
        if k == "N":
            body.append(f"1. {na}" if numbered else f"- {na}")
        i = 2
        for mark, ln in secs.get(k, []):
            if mark != "=" and mark != {"t": "<", "s": ">"}[side]:
                continue
            n += 1
            ln = ln.replace("{p}", prov(side, p["name"], n, ln[:20]))
            if k == "N" and ln.startswith("- ") and numbered:
                ln = f"{i}. " + ln[2:]
                i += 1
            body.append(ln)
        while body and body[-1] == "":
            body.pop()
        # collapse double blank lines
        clean = []
        for ln in body:
            if ln == "" and clean and clean[-1] == "":
                continue
            clean.append(ln)
        out += clean
    return "\n".join(out) + "\n"

def main():
    for d in glob.glob(os.path.join(HERE, "[0-9][0-9][0-9]-*")):
        shutil.rmtree(d)
    pairs = []
    for f in sorted(glob.glob(os.path.join(HERE, "spec-*.txt"))):
        pairs += parse(open(f, encoding="utf-8").read())
    for idx, p in enumerate(pairs, 1):
        d = os.path.join(HERE, f"{idx:03d}-{p['name']}")
        os.makedirs(d)
        for side, fn in (("t", "target.md"), ("s", "source.md")):
            open(os.path.join(d, fn), "w", encoding="utf-8").write(render(p, side))
        contra = not p["kind"].startswith("compatible")
        m = p["meta"]
        exp = {"contradiction": contra, "kind": p["kind"],
               "target_snippet": m.get("tsnip") if contra else None,
               "source_snippet": m.get("ssnip") if contra else None,
               "why": m["why"]}
        open(os.path.join(d, "expect.json"), "w", encoding="utf-8").write(json.dumps(exp, indent=2, ensure_ascii=False) + "\n")
    print(len(pairs), "pairs")

if __name__ == "__main__":
    main()
