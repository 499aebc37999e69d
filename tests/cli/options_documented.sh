# SPDX-License-Identifier: MIT
# options_documented.sh - every option in the table (as `run --help` lists
# it) is in docs/run.md, whose option table is the table's; the boot
# parameter table of docs/operator.md is the image's whitelist; every
# command is in the README or the guides (make docs rewrites the tables).
. tests/lib.sh
"$BB" run --help > "$T/help.txt"
check "run --help exits 0" [ $? = 0 ]
n=0
for opt in $(sed -n '/^Options/,/^$/p' "$T/help.txt" | tail -n +2 | awk 'NF {print $1}' | tr -d ','); do
	n=$((n + 1))
	grep -q -- "\`$opt\`" docs/run.md || bad "option $opt is not in docs/run.md"
done
check "the help lists the options ($n)" [ $n -gt 40 ]
BB="$BB" scripts/options-doc.sh > "$T/table.md"
sed -n '/<!-- options:begin -->/,/<!-- options:end -->/p' docs/run.md | sed '1d;$d' > "$T/run.md"
check "docs/run.md's option table is the table's (make docs)" cmp -s "$T/table.md" "$T/run.md"
scripts/params-doc.sh > "$T/params.md"
sed -n '/<!-- params:begin -->/,/<!-- params:end -->/p' docs/operator.md | sed '1d;$d' > "$T/operator-params.md"
check "docs/operator.md's boot parameter table is the whitelist's (make docs)" cmp -s "$T/params.md" "$T/operator-params.md"
scripts/keymaps-doc.sh > "$T/keymaps.md"
sed -n '/<!-- keymaps:begin -->/,/<!-- keymaps:end -->/p' docs/operator.md | sed '1d;$d' > "$T/operator-keymaps.md"
check "docs/operator.md's keyboard layouts are image/keymaps.table's (make docs)" cmp -s "$T/keymaps.md" "$T/operator-keymaps.md"
"$BB" help | grep -q "^  run " ; check "help lists run" [ $? = 0 ]
for cmd in $("$BB" help | awk '/^Commands:/ { on = 1; next } on && !NF { exit } on { print $1 }'); do
	cat README.md docs/*.md | grep -q "bootbench $cmd" || bad "the command $cmd is not in README.md or docs/"
done
check "README.md is at most 150 lines ($(wc -l < README.md))" [ "$(wc -l < README.md)" -le 150 ]
"$BB" version | grep -qE '^bootbench [0-9]+\.[0-9]+\.[0-9]+$'; check "version" [ $? = 0 ]
finish
