#!/bin/sh
# SPDX-License-Identifier: MIT
# keymaps-doc.sh - the keyboard layout table of docs/operator.md, from
# image/keymaps.table, so the docs list what the image has.
cd "$(dirname "$0")/.."
echo '| bootbench.keymap= | layout | Debian console keymap (console-data) |'
echo '|---|---|---|'
grep -v '^[[:space:]]*#' image/keymaps.table | awk 'NF {
	l = $0; sub(/^[^ ]+ +[^ ]+ +/, "", l)
	printf "| `%s` | %s | `%s` |\n", $1, l, $2 }'
