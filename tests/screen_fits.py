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
the one cell left of it. Exit 2 when no box is on the screen at all."""
import sys

WIDTH, HEIGHT = 80, 24
VERTICAL = set("|│┃║")
CORNER = set("+┌┐└┘├┤┬┴┼╭╮╰╯")
BORDER = VERTICAL | CORNER | set("-─━═▒")

lines = [l.rstrip() for l in sys.stdin.read().rstrip("\n").split("\n")]
problems = []
if len(lines) > HEIGHT:
    problems.append(f"{len(lines)} lines on a {HEIGHT}-line screen")
for row, line in enumerate(lines, 1):
    if len(line) > WIDTH:
        problems.append(f"line {row} is {len(line)} columns: {line!r}")


def at(row, col, chars):
    return 0 <= row < len(lines) and 0 <= col < len(lines[row]) and lines[row][col] in chars


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
if not sides:
    print("no dialog box on the screen")
    sys.exit(2)
sys.exit(1 if problems else 0)
