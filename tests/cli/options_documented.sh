# SPDX-License-Identifier: MIT
# options_documented.sh - every option in the table (as `run --help` lists
# it), every boot parameter of the image and every subcommand is documented
# in README.md, and the help lists every subcommand.
. tests/lib.sh
"$BB" run --help > "$T/help.txt"
check "run --help exits 0" [ $? = 0 ]
n=0
for opt in $(sed -n '/^Options/,/^$/p' "$T/help.txt" | tail -n +2 | awk 'NF {print $1}' | tr -d ','); do
	n=$((n + 1))
	grep -q -- "\`$opt\`" README.md || bad "option $opt is not in README.md"
done
check "the help lists the options ($n)" [ $n -gt 40 ]
BB="$BB" scripts/options-doc.sh > "$T/table.md"
sed -n '/<!-- options:begin -->/,/<!-- options:end -->/p' README.md | sed '1d;$d' > "$T/readme.md"
check "README's option table is the table's (make docs)" cmp -s "$T/table.md" "$T/readme.md"
scripts/params-doc.sh > "$T/params.md"
sed -n '/<!-- params:begin -->/,/<!-- params:end -->/p' README.md | sed '1d;$d' > "$T/readme-params.md"
check "README's boot parameter table is the whitelist's (make docs)" cmp -s "$T/params.md" "$T/readme-params.md"
"$BB" help | grep -q "^  run " ; check "help lists run" [ $? = 0 ]
for cmd in $("$BB" help | awk '/^Commands:/ { on = 1; next } on && !NF { exit } on { print $1 }'); do
	grep -q "bootbench $cmd" README.md || bad "the command $cmd is not in README.md"
done
"$BB" version | grep -qE '^bootbench [0-9]+\.[0-9]+\.[0-9]+$'; check "version" [ $? = 0 ]
finish
