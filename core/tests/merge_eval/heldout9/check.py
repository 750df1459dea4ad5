#!/usr/bin/env python3
"""Check the heldout9 pairs: expect.json parses, snippets occur, structure and composition."""
import collections, glob, json, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
SECTIONS = ['## Situation', '## Decisions', '## Findings', '## Current State', '## Next Steps']
STOP = set('a an the of to for and or in on at by is are be we our it its with from as this that not no'.split())
errors = []


def front(text):
    m = re.match(r'^---\n(.*?)\n---\n', text, re.S)
    return dict(l.split(': ', 1) for l in m.group(1).splitlines()) if m else {}


def claims(text):
    n, sec = 0, None
    for line in text.splitlines():
        if line.startswith('## '):
            sec = line
            continue
        if sec in SECTIONS[1:4] and line.strip() and not line.startswith('|---') and not re.match(r'^\| \w[^[]*\| Source \|$', line):
            n += 1
    return n


def words(s):
    return {w for w in re.findall(r'[a-z0-9]+', s.lower()) if w not in STOP}


comp = collections.Counter()
low_overlap = []
dirs = sorted(glob.glob(os.path.join(HERE, '[0-9][0-9][0-9]-*')))
for d in dirs:
    name = os.path.basename(d)
    try:
        e = json.load(open(os.path.join(d, 'expect.json'), encoding='utf-8'))
    except Exception as ex:
        errors.append(f'{name}: expect.json: {ex}')
        continue
    if set(e) != {'contradiction', 'kind', 'target_snippet', 'source_snippet', 'why'}:
        errors.append(f'{name}: keys {sorted(e)}')
    comp[e['kind']] += 1
    sides = {}
    for fn in ('target.md', 'source.md'):
        t = open(os.path.join(d, fn), encoding='utf-8').read()
        sides[fn] = t
        heads = [l for l in t.splitlines() if l in SECTIONS]
        if heads != SECTIONS:
            errors.append(f'{name}/{fn}: sections {heads}')
        c = claims(t)
        if not 6 <= c <= 15:
            errors.append(f'{name}/{fn}: {c} claims')
        fm = front(t)
        m = re.search(r'## Next Steps\n\n1\. (.*)', t)
        if not m or m.group(1) != fm.get('next_action'):
            errors.append(f'{name}/{fn}: first Next Steps item is not next_action')
    ft, fs = front(sides['target.md']), front(sides['source.md'])
    kind = e['kind']
    if e['contradiction'] != (not kind.startswith('compatible:')):
        errors.append(f'{name}: contradiction flag vs kind')
    same_na = ft['next_action'] == fs['next_action']
    same_st = ft['status'] == fs['status']
    if kind == 'next-action':
        ok = not same_na and same_st
    elif kind == 'lifecycle':
        ok = not same_st and same_na
    elif kind == 'compatible:next-action-reworded':
        ok = not same_na and same_st
    else:
        ok = same_na and same_st
    if not ok:
        errors.append(f'{name}: status/next_action equality wrong for {kind}')
    if e['contradiction']:
        lines = {}
        for key, fn, fmkey in (('target_snippet', 'target.md', None), ('source_snippet', 'source.md', None)):
            snip = e[key]
            if not snip:
                errors.append(f'{name}: empty {key}')
                continue
            fm = front(sides[fn])
            if kind in ('next-action', 'lifecycle'):
                val = fm['next_action'] if kind == 'next-action' else fm['status']
                if snip not in val:
                    errors.append(f'{name}: {key} is not in the frontmatter value')
            hit = [l for l in sides[fn].splitlines() if snip in l]
            if not hit:
                errors.append(f'{name}: {key} not found in {fn}')
            else:
                lines[fn] = hit[0]
            # the snippet line must not also appear on the other side
            other = 'source.md' if fn == 'target.md' else 'target.md'
            if kind not in ('next-action', 'lifecycle') and hit and any(re.sub(r'\[src:[^]]*\]', '', hit[0]).strip() == re.sub(r'\[src:[^]]*\]', '', l).strip() for l in sides[other].splitlines()):
                errors.append(f'{name}: conflicting line of {fn} is identical on the other side')
        if kind != 'lifecycle' and len(lines) == 2:
            a = words(re.sub(r'\[src:[^]]*\]', '', lines['target.md']))
            b = words(re.sub(r'\[src:[^]]*\]', '', lines['source.md']))
            short = min(a, b, key=len)
            if short and len(a & b) / len(short) < 0.5:
                low_overlap.append(name)
    else:
        if e['target_snippet'] is not None or e['source_snippet'] is not None:
            errors.append(f'{name}: compatible pair with snippets')

print(f'{len(dirs)} pairs')
contra = sorted(k for k in comp if not k.startswith('compatible:'))
compat = sorted(k for k in comp if k.startswith('compatible:'))
for group in (contra, compat):
    for k in group:
        print(f'| {k} | {comp[k]} |')
    print(f'| **total** | **{sum(comp[k] for k in group)}** |')
print(f'{len(low_overlap)} contradictions outside lifecycle share fewer than half of the content words '
      f'of the shorter conflicting line: {", ".join(n[:3] for n in low_overlap)}')
for e in errors:
    print('ERROR', e)
sys.exit(1 if errors else 0)
