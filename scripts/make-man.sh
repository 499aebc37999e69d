#!/bin/sh
# SPDX-License-Identifier: MIT
# make-man.sh - docs/man/: bootbench(1) and bootbench-CMD(1) for every
# command, printed by `bootbench help --man` from the commands' own
# declarations (lib/args.h). `make docs` writes them; tests/cli/help.sh
# fails when a committed page differs from what the binary prints.
set -e
cd "$(dirname "$0")/.."
BB=${BB:-out/bootbench}
dir=${1:-docs/man}
mkdir -p "$dir"
"$BB" help --man > "$dir/bootbench.1"
for cmd in $("$BB" help | awk '/^Commands:/ { on = 1; next } on && !NF { exit } on { print $1 }'); do
	"$BB" help --man "$cmd" > "$dir/bootbench-$cmd.1"
done
