# SPDX-License-Identifier: MIT
# Every command declares itself once (lib/args.h), and everything that
# describes it is printed from that declaration: `bootbench help`'s line,
# `bootbench CMD --help` (the same as `bootbench help CMD`), the man pages
# committed in docs/man (make docs; a page that differs from what the
# binary prints fails here) and each flag in the help's table.
. tests/lib.sh
"$BB" help > "$T/help"
cmds=$(awk '/^Commands:/ { on = 1; next } on && !NF { exit } on { print $1 }' "$T/help")
check "help lists the commands ($(echo $cmds | wc -w))" [ "$(echo $cmds | wc -w)" -ge 15 ]
BB="$BB" scripts/make-man.sh "$T/man"
for cmd in $cmds; do
	"$BB" "$cmd" --help > "$T/a" 2>&1; rc=$?
	"$BB" help "$cmd" > "$T/b" 2>&1
	check "$cmd --help: exit 0, the same as help $cmd" sh -c "[ $rc = 0 ] && cmp -s '$T/a' '$T/b'"
	check "... starts with its usage, says its exit status" \
		sh -c "head -n1 '$T/a' | grep -q '^usage: bootbench $cmd' && grep -q '^Exit status: ' '$T/a'"
	summary=$(awk -v c="$cmd" '$1 == c { $1 = ""; sub(/^ +/, ""); print }' "$T/help")
	check "... its man page names it with help's summary" \
		sh -c "grep -qF -- \"$(echo "$summary" | sed 's/-/\\\\-/g')\" '$T/man/bootbench-$cmd.1'"
	check "... docs/man/bootbench-$cmd.1 is what the binary prints (make docs)" \
		cmp -s "docs/man/bootbench-$cmd.1" "$T/man/bootbench-$cmd.1"
done
check "docs/man/bootbench.1 is what the binary prints (make docs)" cmp -s docs/man/bootbench.1 "$T/man/bootbench.1"
check "docs/man has no page of a command that is gone" \
	[ "$(ls docs/man | wc -l)" = "$(ls "$T/man" | wc -l)" ]
finish
