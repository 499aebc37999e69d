# SPDX-License-Identifier: MIT
# Issue 14 A.2: options on the command line hold wherever they stand, before
# or after a job file, as fio's do: they are the global defaults, and a job's
# own option wins over them. Debian's fio is run on the same file and must
# give the same I/O counts. Before the fix, `bootbench run j.fio --bs=64k`
# ran 4k I/Os while the JSON's "global options" said bs=64k.
. tests/lib.sh
command -v fio >/dev/null || skip "fio is not installed"
cat > "$T/j.fio" <<JOB
[inherits]
rw=read
size=4M
filename=$T/data

[own_bs]
rw=read
bs=4k
size=4M
filename=$T/data
JOB
dd if=/dev/zero of="$T/data" bs=1M count=4 status=none
counts='" ".join("%s=%d" % (j["jobname"], j["read"]["total_ios"]) for j in d["jobs"])'
for order in after before; do
	if [ $order = after ]; then set -- "$T/j.fio" --bs=64k; else set -- --bs=64k "$T/j.fio"; fi
	"$BB" run --output-format=json "$@" > "$T/bb.json"
	check "--bs=64k $order the job file: exit 0" [ $? = 0 ]
	check "... the job without bs runs 64k I/Os, the one with bs=4k keeps it" \
		json "$T/bb.json" "$counts == 'inherits=64 own_bs=1024'"
	check "... the JSON's global options say bs=64k" json "$T/bb.json" 'd["global options"] == {"bs": "64k"}'
	fio --output-format=json "$@" > "$T/fio.json" 2> "$T/fio.err"
	check "... fio gives the same counts" sh -c "[ \"\$(python3 -c 'import json; d = json.load(open(\"$T/fio.json\")); print($counts)')\" = \"\$(python3 -c 'import json; d = json.load(open(\"$T/bb.json\")); print($counts)')\" ]"
done
"$BB" run "$T/j.fio" --bs=64q > /dev/null 2> "$T/err"
check "a bad option after the job file: exit 2" [ $? = 2 ]
check "... one line naming it" sh -c "[ \$(wc -l < '$T/err') = 1 ] && grep -q 'bs' '$T/err'"
finish
