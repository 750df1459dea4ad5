#!/usr/bin/env python3
"""Render spec-*.txt into NNN-short-name/{target.md,source.md,expect.json}.

Spec format (one pair per block):
  @@ NNN-short-name | kind | Title
  why: one line
  ts: target snippet        (contradictions only)
  ss: source snippet
  status: active            or  status: active | resolved   (target | source)
  next: text                or  next: target text | source text
  lead: name                (optional, same on both sides)
  S: situation paragraph    (=S / <S / >S also allowed)
  <side><section>[mod]: text
     side: = both, < target only, > source only
     section: D Decisions, F Findings, C Current State, N Next Steps, Q Open Questions
     mod: (none) list item, n nested sub-item, p paragraph, h table header, t table row
  Provenance is appended to D/F/C claims (or put where {src} stands); `@name` at the end
  of a claim picks the artifact name.
"""
import glob, hashlib, json, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_ARTS = ["notes", "thread", "log", "sheet", "call", "email"]
SECTIONS = [("D", "Decisions"), ("F", "Findings"), ("C", "Current State")]


def h(s, n):
    return int(hashlib.sha1(s.encode()).hexdigest()[:8], 16) % n


def artid(side, slug, name):
    tag = hashlib.sha1((side + slug).encode()).hexdigest()[:4]
    return f"art_0{'1' if side == 't' else '2'}{tag}{name}"


def parse(path):
    pairs, cur = [], None
    for raw in open(path, encoding="utf-8"):
        line = raw.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("@@"):
            name, kind, title = [x.strip() for x in line[2:].split("|")]
            cur = {"name": name, "kind": kind, "title": title, "items": [], "S": {}}
            pairs.append(cur)
            continue
        m = re.match(r"^(why|ts|ss|status|next|lead):\s?(.*)$", line)
        if m:
            cur[m.group(1)] = m.group(2)
            continue
        m = re.match(r"^([=<>]?)S:\s?(.*)$", line)
        if m:
            side = m.group(1) or "="
            cur["S"][side] = m.group(2)
            continue
        m = re.match(r"^([=<>])([DFCNQ])([nphtr]?):\s?(.*)$", line)
        if not m:
            sys.exit(f"{path}: cannot parse: {line!r}")
        cur["items"].append(m.groups())
    return pairs


def render(p, side):
    slug = p["name"]
    sym = "<" if side == "t" else ">"

    def pick(v):
        if "|" in v:
            a, b = [x.strip() for x in v.split("|", 1)]
            return a if side == "t" else b
        return v.strip()

    status, nxt = pick(p["status"]), pick(p["next"])
    sit = p["S"].get(sym) or p["S"].get("=")
    fm = ["---", f"status: {status}"] + ([f"lead: {p['lead']}"] if p.get("lead") else [])
    out = fm + [f"next_action: {nxt}", "---", f"# {p['title']}", "",
           "## Situation", "", sit, ""]
    k = 0
    def prov(text):
        nonlocal k
        k += 1
        m = re.search(r"\s@([a-z0-9]+)\s*$", text)
        if m:
            name, text = m.group(1), text[: m.start()]
        else:
            name = DEFAULT_ARTS[h(slug + side + str(k), len(DEFAULT_ARTS))]
        a = artid(side, slug, name)
        seed = slug + side + text
        if h(seed, 5) == 0:
            src = f"[src:{a}]"
        else:
            lo = 2 + h(seed, 180)
            src = f"[src:{a}#L{lo}-L{lo + h(seed + 'x', 14)}]"
        return text.replace("{src}", src) if "{src}" in text else f"{text} {src}"

    items = [it for it in p["items"] if it[0] in ("=", sym)]
    for sec, title in SECTIONS:
        out += [f"## {title}", ""]
        prev = None
        for _, s, mod, text in [it for it in items if it[1] == sec]:
            if mod == "h":
                if prev not in (None, "p"):
                    out.append("")
                cells = [c.strip() for c in text.split("|")]
                out.append("| " + " | ".join(cells) + " |")
                out.append("|" + "---|" * len(cells))
            elif mod == "t":
                out.append("| " + " | ".join(c.strip() for c in prov(text).split(" | ")) + " |")
            elif mod == "p":
                if prev is not None:
                    out.append("")
                out.append(prov(text))
                out.append("")
            elif mod == "n":
                out.append("  - " + prov(text))
            else:
                if prev in ("h", "t"):
                    out.append("")
                out.append("- " + prov(text))
            prev = mod or "l"
        if out[-1] != "":
            out.append("")
    out += ["## Next Steps", "", f"1. {nxt}"]
    n = 1
    for _, s, mod, text in [it for it in items if it[1] == "N"]:
        n += 1
        out.append(f"{n}. {text}")
    out.append("")
    qs = [it for it in items if it[1] == "Q"]
    if qs:
        out += ["## Open Questions", ""]
        for _, s, mod, text in qs:
            out.append(("- " if mod != "p" else "") + (prov(text) if "{src}" in text else text))
        out.append("")
    return "\n".join(out).replace("\n\n\n", "\n\n")


def main():
    import shutil
    for d in glob.glob(os.path.join(HERE, "[0-9][0-9][0-9]-*")):
        shutil.rmtree(d)
    for f in sorted(glob.glob(os.path.join(HERE, "spec-*.txt"))):
        for p in parse(f):
            d = os.path.join(HERE, p["name"])
            os.makedirs(d, exist_ok=True)
            for side, fn in (("t", "target.md"), ("s", "source.md")):
                open(os.path.join(d, fn), "w", encoding="utf-8").write(render(p, side))
            contra = not p["kind"].startswith("compatible:")
            exp = {"contradiction": contra, "kind": p["kind"],
                   "target_snippet": p.get("ts") if contra else None,
                   "source_snippet": p.get("ss") if contra else None,
                   "why": p["why"]}
            open(os.path.join(d, "expect.json"), "w", encoding="utf-8").write(
                json.dumps(exp, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
