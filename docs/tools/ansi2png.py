#!/usr/bin/env python3
"""Render a terminal capture with SGR colour codes (`tmux capture-pane -e -p`) to a PNG.

A docs tool (the README's screenshots of `dossier tui`), not a test: needs Pillow
(`python3 -m pip install Pillow`) and the DejaVu Sans Mono font.

usage: ansi2png.py CAPTURE.txt OUT.png [--cols 80] [--rows 24]
"""
import argparse
import re

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = "/usr/share/fonts/truetype/dejavu/"
SIZE = 16
# xterm's 16 colours, a dark theme.
BASE = [
    (0x1E, 0x1E, 0x1E), (0xCD, 0x31, 0x31), (0x0D, 0xBC, 0x79), (0xE5, 0xE5, 0x10),
    (0x24, 0x72, 0xC8), (0xBC, 0x3F, 0xBC), (0x11, 0xA8, 0xCD), (0xE5, 0xE5, 0xE5),
    (0x66, 0x66, 0x66), (0xF1, 0x4C, 0x4C), (0x23, 0xD1, 0x8B), (0xF5, 0xF5, 0x43),
    (0x3B, 0x8E, 0xEA), (0xD6, 0x70, 0xD6), (0x29, 0xB8, 0xDB), (0xFF, 0xFF, 0xFF),
]
FG, BG = (0xD4, 0xD4, 0xD4), (0x1E, 0x1E, 0x1E)


def color256(n):
    if n < 16:
        return BASE[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return (steps[n // 36], steps[(n // 6) % 6], steps[n % 6])
    v = 8 + (n - 232) * 10
    return (v, v, v)


def parse(text, cols, rows):
    """A grid of (char, fg, bg, bold, underline) cells."""
    grid = []
    st = {"fg": None, "bg": None, "bold": False, "ul": False, "rev": False}
    for line in text.split("\n")[:rows]:
        cells = []
        for tok in re.split(r"(\x1b\[[0-9;]*m)", line):
            m = re.fullmatch(r"\x1b\[([0-9;]*)m", tok)
            if m:
                codes = [int(c) if c else 0 for c in m.group(1).split(";")] if m.group(1) else [0]
                i = 0
                while i < len(codes):
                    c = codes[i]
                    if c == 0:
                        st = {"fg": None, "bg": None, "bold": False, "ul": False, "rev": False}
                    elif c == 1:
                        st["bold"] = True
                    elif c == 22:
                        st["bold"] = False
                    elif c == 4:
                        st["ul"] = True
                    elif c == 24:
                        st["ul"] = False
                    elif c == 7:
                        st["rev"] = True
                    elif c == 27:
                        st["rev"] = False
                    elif 30 <= c <= 37:
                        st["fg"] = BASE[c - 30]
                    elif 90 <= c <= 97:
                        st["fg"] = BASE[c - 90 + 8]
                    elif c == 39:
                        st["fg"] = None
                    elif 40 <= c <= 47:
                        st["bg"] = BASE[c - 40]
                    elif 100 <= c <= 107:
                        st["bg"] = BASE[c - 100 + 8]
                    elif c == 49:
                        st["bg"] = None
                    elif c in (38, 48) and i + 1 < len(codes):
                        key = "fg" if c == 38 else "bg"
                        if codes[i + 1] == 5 and i + 2 < len(codes):
                            st[key] = color256(codes[i + 2])
                            i += 2
                        elif codes[i + 1] == 2 and i + 4 < len(codes):
                            st[key] = tuple(codes[i + 2:i + 5])
                            i += 4
                    i += 1
                continue
            for ch in tok:
                fg, bg = st["fg"] or FG, st["bg"] or BG
                if st["rev"]:
                    fg, bg = bg, fg
                cells.append((ch, fg, bg, st["bold"], st["ul"]))
        while len(cells) < cols:
            cells.append((" ", FG, BG, False, False))
        grid.append(cells[:cols])
    while len(grid) < rows:
        grid.append([(" ", FG, BG, False, False)] * cols)
    return grid


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("capture")
    ap.add_argument("out")
    ap.add_argument("--cols", type=int, default=80)
    ap.add_argument("--rows", type=int, default=24)
    a = ap.parse_args()
    regular = ImageFont.truetype(FONT_DIR + "DejaVuSansMono.ttf", SIZE)
    bold = ImageFont.truetype(FONT_DIR + "DejaVuSansMono-Bold.ttf", SIZE)
    cw = round(regular.getlength("M"))
    asc, desc = regular.getmetrics()
    ch = asc + desc + 2
    pad = 12
    grid = parse(open(a.capture, encoding="utf-8").read(), a.cols, a.rows)
    img = Image.new("RGB", (a.cols * cw + 2 * pad, a.rows * ch + 2 * pad), BG)
    d = ImageDraw.Draw(img)
    for y, row in enumerate(grid):
        for x, (c, fg, bg, b, ul) in enumerate(row):
            x0, y0 = pad + x * cw, pad + y * ch
            if bg != BG:
                d.rectangle([x0, y0, x0 + cw - 1, y0 + ch - 1], fill=bg)
            if c != " ":
                d.text((x0, y0 + 1), c, font=bold if b else regular, fill=fg)
            if ul:
                d.line([x0, y0 + ch - 2, x0 + cw - 1, y0 + ch - 2], fill=fg)
    img.save(a.out)


if __name__ == "__main__":
    main()
