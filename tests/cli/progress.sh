# SPDX-License-Identifier: MIT
# --progress-fd: one line a second while jobs run ("progress PCT ELAPSED LEFT
# READ_IOPS WRITE_IOPS MB_S JOB"), the percentage never going back, a last
# line at 100, and none of it on stdout (the report stays clean JSON).
. tests/lib.sh
"$BB" run --filename="$T/p.img" --size=32m --rw=randrw --time_based --name=first --runtime=2 \
	--name=second --stonewall --runtime=2 --output-format=json --progress-fd=3 3> "$T/progress" > "$T/out.json"
check "the run exits 0" [ $? = 0 ]
check "stdout is still one JSON document" json "$T/out.json" 'len(d["jobs"]) == 2'
check "a line a second: at least 3 in 4 s" [ "$(grep -c '^progress ' "$T/progress")" -ge 3 ]
check "every line has 8 fields" awk 'NF != 8 { exit 1 }' "$T/progress"
check "the percentage never goes back and ends at 100" awk '$2 < last { exit 1 } { last = $2 } END { exit !(last == 100) }' "$T/progress"
check "both jobs are named while they run" sh -c "grep -q ' first\$' '$T/progress' && grep -q ' second\$' '$T/progress'"
check "I/O is counted while running" awk '$8 != "done" && $5 + $6 > 0 { found = 1 } END { exit !found }' "$T/progress"
finish
