#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""screen_fits.py - reads a terminal capture (tmux capture-pane -p) on
stdin and exits 1, naming each line, when a line is wider than the screen
(80 columns, 24 lines) or a dialog box's text reaches the box's right-hand
edge. A box's side is a vertical bar ('|' over a serial line, '│' on a
terminal with line drawing) with a bar or a corner above or below it. In a
text box or a list the two cells left of a side must be blank or border:
bootbench's screens keep that column blank, so text in it was cut by
dialog (wider than its box); in a message box, which dialog folds at words,
the one cell left of it. Exit 2 when no box is on the screen at all.

--text: a command's console output (a text box's content, scrolled, so
any length) in place of a screen: no box, and two more checks:
--unfolded FILE, the same output unfolded (width 0: burnin.txt), whose
words the screen must hold in the same order (folding moved only blanks:
no word cut unmarked, none lost; a piece ending in '\\' goes on at the next
line); --device NAME (repeated), every line naming NAME
("/dev/NAME", "NAME:", "NAME " at a word's start) lies in NAME's block,
from its heading line ("  /dev/NAME") to the next line indented less than
its findings (so one disk's words never read as another's)."""
import argparse
import re
import sys

opts = argparse.ArgumentParser()
opts.add_argument("--text", action="store_true")
opts.add_argument("--unfolded")
opts.add_argument("--device", action="append", default=[])
opts = opts.parse_args()

WIDTH, HEIGHT = 80, 24
VERTICAL = set("|│┃║")
CORNER = set("+┌┐└┘├┤┬┴┼╭╮╰╯")
BORDER = VERTICAL | CORNER | set("-─━═▒")

lines = [l.rstrip() for l in sys.stdin.read().rstrip("\n").split("\n")]
problems = []


def text_checks():
    if opts.unfolded:
        want = open(opts.unfolded).read().split()
        # a word longer than a line is cut, '\\' ending each piece but the
        # last (wrap.h's WRAP_CUT): the pieces joined are the word
        joined = ""
        for line in lines:
            if joined.endswith("\\"):
                joined = joined[:-1] + line.lstrip()
            else:
                joined += " " + line
        have = joined.split()
        for i, (w, h) in enumerate(zip(want + [None] * len(have), have + [None] * len(want))):
            if w != h:
                problems.append(f"word {i + 1} is {h!r} on the screen, {w!r} unfolded "
                                f"(a word cut or lost): ...{' '.join(have[max(0, i - 6):i + 2])}")
                break
    for name in opts.device:
        base = name.rsplit("/", 1)[-1]
        named = re.compile(r"(^|[\s(])(/dev/)?" + re.escape(base) + r"[:\s]")
        heading = re.compile(r"^( *)(/dev/)?" + re.escape(base) + r"$")
        inside, depth = False, 0
        for row, line in enumerate(lines, 1):
            m = heading.match(line)
            if m:
                inside, depth = True, len(m.group(1))
                continue
            if inside and len(line) - len(line.lstrip()) <= depth:
                inside = False
            if named.search(line + " ") and not inside:
                problems.append(f"line {row} names {name} outside its block: {line.strip()!r}")


if opts.text:
    text_checks()
elif len(lines) > HEIGHT:
    problems.append(f"{len(lines)} lines on a {HEIGHT}-line screen")
for row, line in enumerate(lines, 1):
    if len(line) > WIDTH:
        problems.append(f"line {row} is {len(line)} columns: {line!r}")


def at(row, col, chars):
    return 0 <= row < len(lines) and 0 <= col < len(lines[row]) and lines[row][col] in chars


sides = set()
if not opts.text:
    # a side: a vertical bar with another bar or a corner above or below it
    sides = {(r, c) for r in range(len(lines)) for c in range(len(lines[r]))
             if at(r, c, VERTICAL) and (at(r - 1, c, VERTICAL | CORNER) or at(r + 1, c, VERTICAL | CORNER))}
    # A text box (our "< Back >") or a list inside a box holds lines as they are
    # given: text in the cell before its padding was cut. A message box's text
    # dialog folds at words itself, and may fill its last column.
    strict = any("< Back >" in l for l in lines) or any(
        (r, c2) in sides for r, c in sides for c2 in range(c + 1, c + 4))
    for row, line in enumerate(lines):
        for col in sorted(c for r, c in sides if r == row):
            near = [line[c] for c in ((col - 1, col - 2) if strict else (col - 1,)) if c >= 0]
            if any(ch != " " and ch not in BORDER for ch in near):
                problems.append(f"line {row + 1}: text runs into the box edge at column {col + 1}: "
                                f"{line.strip()!r}")
                break
for p in problems:
    print(p)
if not sides and not opts.text:
    print("no dialog box on the screen")
    sys.exit(2)
sys.exit(1 if problems else 0)
