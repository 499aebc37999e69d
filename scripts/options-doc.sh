#!/bin/sh
# SPDX-License-Identifier: MIT
# options-doc.sh - the option list of docs/run.md, made from the option table
# (through `bootbench run --help`). `make docs` writes it into docs/run.md;
# tests/cli/options_documented.sh fails when docs/run.md is behind the table.
BB=${BB:-out/bootbench}
echo "| option | meaning [default] |"
echo "|---|---|"
"$BB" run --help | sed -n '/^Options/,/^$/p' | tail -n +2 | sed '/^$/d' |
	sed -E 's/^  ([^ ]+) +(.*)$/| `\1` | \2 |/; s|^(\| `[^`/]+)/|\1`, `|'
