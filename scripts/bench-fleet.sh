#!/bin/sh
# SPDX-License-Identifier: MIT
# bench-fleet.sh - bootbench fleet and compare at a rack's scale (issue 46's
# speed targets), on a share made here from one real run of each kind:
# bootbench inventory over a recorded machine, bootbench run's fio JSON
# with the disks.json beside it, results.sh's status.json; each copied to
# N machines, their serials and MACs their own (a tenth listed by MAC, a
# hundredth failed). Timed, each with a cold cache (drop_caches before),
# the median of ROUNDS (its CPU time beside it: what other load on the
# machine hid):
#   fleet --expect over 10,000 listed machines and their 10,000 saved runs:
#     target < 5 s;
#   compare over the same 10,000 runs: target < 5 s;
#   fleet --expect over 100,000 listed machines and their 100,000 runs
#     (inventory.json and status.json each): target < 60 s.
# The share lives in BENCH_DIR (default /tmp, on disk: a cold cache means
# something there) and is removed after.
set -e
cd "$(dirname "$0")/.."
[ -x out/bootbench ] || { echo "bench-fleet: out/bootbench is not built: make all" >&2; exit 2; }
ROUNDS=${ROUNDS:-3} N=${N:-10000} BIG=${BIG:-100000}
dir=$(mktemp -d "${BENCH_DIR:-/tmp}/bbfleet.XXXXXX")
trap 'rm -rf "$dir"' EXIT
BB=$PWD/out/bootbench

# the seeds: one machine's real files
R=$dir/machine
mkdir -p "$R/sys/class/dmi/id" "$R/sys/class/net/eno1/device" "$R/proc" "$R/dev" "$dir/seed"
echo SEED-SERIAL > "$R/sys/class/dmi/id/product_serial"
echo 52:54:00:ab:cd:ef > "$R/sys/class/net/eno1/address"
echo up > "$R/sys/class/net/eno1/operstate"
grep -m8 . /proc/cpuinfo > "$R/proc/cpuinfo"
printf 'MemTotal:        1048576 kB\nMemFree:          600000 kB\nMemAvailable:     524288 kB\n' > "$R/proc/meminfo"
: > "$R/dev/kmsg"
BOOTBENCH_SYSROOT=$R "$BB" inventory --output="$dir/seed" > /dev/null
head -c 16M /dev/zero > "$dir/data"
BOOTBENCH_SYSROOT=$R "$BB" run --name=randread --filename="$dir/data" --rw=randread --bs=4k --size=16m --runtime=1 \
	--time_based --output-format=json --output="$dir/seed/quick.json" > /dev/null
BB_RUN=quick sh -c '. rootfs/lib/bootbench/results.sh; write_status "$1" 0 ""' - "$dir/seed"
rm -f "$dir/data"

python3 - "$dir" "$N" "$BIG" "$dir/data" <<'PY'
import json, os, sys, time
top, n, big, target = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
seed = {f: open(os.path.join(top, "seed", f)).read() for f in ("inventory.json", "quick.json", "status.json")}
stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
def machine(i):
    return "SN-%06d" % i, "52:54:%02x:%02x:%02x:%02x" % (i >> 24 & 255, i >> 16 & 255, i >> 8 & 255, i & 255)
def share(root, count, fio):
    rows = ["position,serial,mac"]
    for i in range(count):
        serial, mac = machine(i)
        d = os.path.join(root, "%s_%s_%06x" % (stamp, serial, i))
        os.makedirs(d)
        for f, text in seed.items():
            if f == "quick.json" and not fio:
                continue
            text = text.replace("SEED-SERIAL", serial).replace("52:54:00:ab:cd:ef", mac)
            if f == "status.json" and i % 100 == 7:
                text = text.replace('"exit_status": 0', '"exit_status": 1')
            if f == "quick.json":
                # each disk its own rate: a fleet, not one figure copied
                j = json.loads(text)
                for job in j["jobs"]:
                    job["read"]["iops"] *= 0.9 + (i % 21) / 100
                text = json.dumps(j)
            open(os.path.join(d, f), "w").write(text)
        if fio:
            json.dump({"disks": [{"name": "sda", "path": target, "serial": "D-%06d" % i, "model": "Model %d" % (i % 4),
                                  "firmware": "FW1", "size": 1 << 40}]}, open(os.path.join(d, "disks.json"), "w"))
        rows.append("R%04d-U%02d,%s,%s" % (i // 40, i % 40, "" if i % 10 == 3 else serial, mac if i % 10 == 3 else ""))
    open(root + ".csv", "w").write("\n".join(rows) + "\n")
share(os.path.join(top, "share"), n, True)
share(os.path.join(top, "big"), big, False)
PY

timed() { # LABEL TARGET-S COMMAND...: the median wall time of ROUNDS cold runs, and its CPU time
	label=$1 target=$2; shift 2
	: > "$dir/times"
	for r in $(seq "$ROUNDS"); do
		sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || cold="(cache not dropped: not root)"
		/usr/bin/time -f '%e %U %S' -o "$dir/time" "$@" > /dev/null 2>&1 || [ $? -le 3 ] ||
			{ echo "bench-fleet: $label: $* failed" >&2; exit 1; }
		tail -n 1 "$dir/time" >> "$dir/times"
	done
	# the median round by wall time; its CPU (user + system) says what other load on the machine hid
	set -- $(sort -n "$dir/times" | sed -n "$(((ROUNDS + 1) / 2))p")
	printf '%-58s %7.2f s  (CPU %.2f s; target < %s s%s) %s\n' "$label" "$1" "$(echo "$2 + $3" | bc)" "$target" \
		"${cold:+, $cold}" "$(echo "$1 < $target" | bc | sed 's/1/ok/;s/0/OVER/')"
}
echo "bench-fleet: cold cache, the median of $ROUNDS rounds, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
timed "fleet --expect: $N listed machines, their $N saved runs" 5 "$BB" fleet --expect="$dir/share.csv" "$dir/share"
timed "compare: $N runs" 5 "$BB" compare "$dir/share"
timed "fleet --expect: $BIG listed machines, their $BIG saved runs" 60 "$BB" fleet --expect="$dir/big.csv" "$dir/big"
