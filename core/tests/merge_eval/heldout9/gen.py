#!/usr/bin/env python3
"""Render spec-*.txt into NNN-*/ pair directories (deletes and rewrites them)."""
import glob, json, os, re, shutil

HERE = os.path.dirname(os.path.abspath(__file__))
SECT = {'D': 'Decisions', 'F': 'Findings', 'C': 'Current State', 'Q': 'Open Questions', 'R': 'Open Risks'}


def parse(path):
    pairs, cur = [], None
    for raw in open(path, encoding='utf-8'):
        line = raw.rstrip('\n')
        if not line.strip() or line.startswith('#'):
            continue
        if line.startswith('@@ '):
            name, kind, title = [x.strip() for x in line[3:].split('|')]
            cur = {'name': name, 'kind': kind, 'title': title, 'claims': [], 'steps': []}
            pairs.append(cur)
            continue
        m = re.match(r'^(sit|st|na|ts|ss|why|lead):\s?(.*)$', line)
        if m:
            cur[m.group(1)] = m.group(2)
            continue
        m = re.match(r'^([=<>]) ([DFCQRN]) ([-*p|h]) (.*)$', line)
        if not m:
            raise SystemExit(f'{path}: bad line: {line}')
        cur['claims'].append(m.groups())
    return pairs


def slug(name):
    return re.sub(r'[^a-z]', '', name.split('-', 1)[1])[:10]


def render(p, side):
    mark = '<' if side == 0 else '>'
    status = p['st'].split(' | ')
    status = status[side] if len(status) > 1 else status[0]
    na = p['na'].split(' | ')
    na = na[side] if len(na) > 1 else na[0]
    art = ('art_01' if side == 0 else 'art_02') + slug(p['name'])
    n = [0]

    def prov(text):
        n[0] += 1
        k = n[0]
        if (k + side) % 3 == 0:
            tag = f'[src:{art}{k}]'
        else:
            a = 3 + 7 * k + 5 * side
            tag = f'[src:{art}#L{a}-L{a + 2 + side}]'
        return f'{text} {tag}'

    out = ['---', f'status: {status}']
    if p.get('lead'):
        out.append(f"lead: {p['lead']}")
    out += [f'next_action: {na}', '---', f"# {p['title']}", '', '## Situation', '', p['sit'], '']
    for key in 'DFC':
        out += [f'## {SECT[key]}', '']
        body, prev = [], None
        for who, sec, form, text in p['claims']:
            if sec != key or who not in ('=', mark):
                continue
            if form == 'h':
                cols = [c.strip() for c in text.strip().strip('|').split('|')]
                if prev in ('-', '*'):
                    body.append('')
                body.append('| ' + ' | '.join(cols + ['Source']) + ' |')
                body.append('|' + '---|' * (len(cols) + 1))
            elif form == '|':
                cols = [c.strip() for c in text.strip().strip('|').split('|')]
                tag = prov('').strip()
                body.append('| ' + ' | '.join(cols + [tag]) + ' |')
            elif form == '-':
                if prev in ('p', '|'):
                    body.append('')
                body.append('- ' + prov(text))
            elif form == '*':
                body.append('  - ' + prov(text))
            elif form == 'p':
                if body:
                    body.append('')
                body.append(prov(text))
            prev = form if form != 'h' else '|'
        out += body + ['']
    out += ['## Next Steps', '', f'1. {na}']
    i = 2
    for who, sec, form, text in p['claims']:
        if sec == 'N' and who in ('=', mark):
            out.append(f'{i}. {text}')
            i += 1
    out.append('')
    for key in 'RQ':
        items = [t for w, s, f, t in p['claims'] if s == key and w in ('=', mark)]
        if items:
            out += [f'## {SECT[key]}', '']
            out += ['- ' + (prov(t) if key == 'R' else t) for t in items]
            out.append('')
    return '\n'.join(out)


def main():
    for d in glob.glob(os.path.join(HERE, '[0-9][0-9][0-9]-*')):
        shutil.rmtree(d)
    for spec in sorted(glob.glob(os.path.join(HERE, 'spec-*.txt'))):
        for p in parse(spec):
            d = os.path.join(HERE, p['name'])
            os.makedirs(d)
            for side, fn in ((0, 'target.md'), (1, 'source.md')):
                with open(os.path.join(d, fn), 'w', encoding='utf-8') as f:
                    f.write(render(p, side))
            contra = not p['kind'].startswith('compatible:')
            exp = {'contradiction': contra, 'kind': p['kind'],
                   'target_snippet': p.get('ts') if contra else None,
                   'source_snippet': p.get('ss') if contra else None,
                   'why': p['why']}
            with open(os.path.join(d, 'expect.json'), 'w', encoding='utf-8') as f:
                json.dump(exp, f, indent=2, ensure_ascii=False)
                f.write('\n')


if __name__ == '__main__':
    main()
