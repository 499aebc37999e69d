#!/bin/sh
# SPDX-License-Identifier: MIT
# make-docs.sh - rewrites what the docs generate (`make docs`): the option
# table of docs/run.md (from the option table, through `bootbench run
# --help`), the boot parameter table of docs/operator.md (from the image's
# whitelist) and the man pages of docs/man/ (scripts/make-man.sh).
# tests/cli/options_documented.sh and tests/cli/help.sh fail when they are
# behind.
set -e
cd "$(dirname "$0")/.."
tmp=docs/.table.tmp.$$
# table FILE MARK GENERATOR...: the lines between <!-- MARK:begin --> and <!-- MARK:end --> replaced
table() {
	file=$1 mark=$2
	shift 2
	{
		sed -n "1,/<!-- $mark:begin -->/p" "$file"
		"$@"
		sed -n "/<!-- $mark:end -->/,\$p" "$file"
	} > "$tmp"
	mv "$tmp" "$file"
}
table docs/run.md options scripts/options-doc.sh
table docs/operator.md params scripts/params-doc.sh
table docs/operator.md keymaps scripts/keymaps-doc.sh
scripts/make-man.sh
