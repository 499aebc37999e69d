# SPDX-License-Identifier: MIT
# The boot parameters' parser (rootfs/lib/bootbench/boot.sh, run by the
# image's busybox sh at every boot) against generated input: 40 kernel
# command lines and bootbench.conf files from a seeded generator, with the
# whitelist's names and unknown ones, and values made of what breaks shell
# code (quotes, $(...), backticks, globs, newlines in the conf, very long
# words, bytes outside ASCII, =, commas, semicolons). For every case the
# parse must come to its end (the shell never dies, never hangs), run
# nothing that a value names (a canary command leaves no file), set only
# BB_* variables of the whitelist, and report every bad value as an error
# rather than keep it. The same seed gives the same cases: a failure names
# its case, reproducible with CASES and SEED.
. tests/lib.sh
need_commands python3
SH=sh
[ -x out/busybox/busybox ] && SH="$PWD/out/busybox/busybox sh"
SRC=$PWD
SEED=${SEED:-20261202}
CASES=${CASES:-40}
mkdir -p "$T/root/etc/bootbench" "$T/root/proc" "$T/cases"
cp rootfs/etc/bootbench/params "$T/root/etc/bootbench/params"
names=$(grep -v '^[[:space:]]*#' rootfs/etc/bootbench/params | awk 'NF { print $1 }' | tr '\n' ' ')
python3 - "$T/cases" "$SEED" "$CASES" "$T/canary" $names <<'PY'
import os, random, sys
out, seed, n, canary, names = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5:]
r = random.Random(seed)
nasty = ["$(touch %s)" % canary, "`touch %s`" % canary, "';touch %s;'" % canary, '"', "'", "\\", "*", "?",
         "${HOME}", "$((1/0))", ";", "|", "&", ">", "<", "=", ",", " ", "\t", "%", "..", "/", "-", "--x",
         "\xc3\xa9", "\xff", "0", "-1", "99999999999999999999", "all", "usb", "none", "poweroff",
         "smb://bench@host/share", "/dev/sda", "../../etc/passwd", "http://10.0.2.2:1/${mac}"]
def value():
    return "".join(r.choice(nasty + ["a", "b", "1"]) for _ in range(r.randint(0, 6))) + \
        ("x" * r.randint(0, 5000) if r.random() < 0.05 else "")
def name():
    return r.choice(names) if r.random() < 0.85 else r.choice(["colour", "RUN", "run.x", "", "a" * 300, "run;"])
for i in range(n):
    words = ["console=ttyS0", "quiet"]
    for _ in range(r.randint(0, 8)):
        # a command line word has no blanks in it: the kernel splits there
        words.append(("bootbench.%s=%s" % (name(), value())).replace(" ", "").replace("\t", ""))
    conf = "\n".join("%s%s=%s" % (r.choice(["", "bootbench.", "  "]), name(), value())
                     for _ in range(r.randint(0, 8)))
    with open(os.path.join(out, "%03d.cmdline" % i), "wb") as f:
        f.write(" ".join(words).encode("utf-8", "surrogateescape") + b"\n")
    with open(os.path.join(out, "%03d.conf" % i), "wb") as f:
        f.write(conf.encode("utf-8", "surrogateescape") + (b"\r\n" if r.random() < 0.2 else b"\n"))
PY
# the whitelist's variables, and what boot.sh sets for itself (BB_LOG ...)
allowed=$(for n in $names; do printf 'BB_%s ' "$(echo "$n" | tr a-z A-Z)"; done)
allowed="$allowed $(echo quiet > "$T/empty"; ROOT="$T/root" CMDLINE="$T/empty" BB_RUNDIR="$T/run" $SH -c '
	. "$1"/rootfs/lib/bootbench/boot.sh; set | sed -n "s/^\(BB_[A-Z0-9_]*\)=.*/\1/p"' sh "$SRC" | tr '\n' ' ')"
died=0 ran=0 strays=0 n=0
for c in "$T"/cases/*.cmdline; do
	i=$(basename "$c" .cmdline)
	n=$((n + 1))
	out=$(cd "$T" && ROOT="$T/root" CMDLINE="$c" BB_RUNDIR="$T/run" BOOTBENCH="$BB" timeout 20 $SH -c '
		. "$2"/rootfs/lib/bootbench/boot.sh
		BB_PARAM_ERRORS=""
		params_from_cmdline
		params_from_conf "$1"
		params_defaults
		echo PARSED
		set | sed -n "s/^\(BB_[A-Z0-9_]*\)=.*/\1/p"' sh "$T/cases/$i.conf" "$SRC" 2>&1)
	if ! echo "$out" | grep -q '^PARSED$'; then
		died=$((died + 1))
		[ $died -le 3 ] && { echo "case $i: the parse did not come to its end:"; echo "$out" | tail -n 5 | sed 's/^/    /'; }
	fi
	if [ -e "$T/canary" ]; then
		ran=$((ran + 1)); rm -f "$T/canary"
		echo "case $i: a value was run as a command: $(cat "$c")"
	fi
	for v in $(echo "$out" | sed -n '/^PARSED$/,$p' | grep '^BB_'); do
		case " $allowed BB_PARAM_ERRORS " in *" $v "*) ;; *)
			strays=$((strays + 1)); echo "case $i: a variable outside the whitelist: $v" ;;
		esac
	done
done
check "$n generated cases, each parsed to its end by busybox sh" [ $died = 0 ]
check "... no value ever run as a command" [ $ran = 0 ]
check "... no variable set outside the whitelist" [ $strays = 0 ]
# the generator made what it should: most cases have an error, some none
errors=0
for c in "$T"/cases/*.cmdline; do grep -q 'bootbench\.colour=' "$c" && errors=$((errors + 1)); done
check "the cases include unknown names ($errors of $n)" [ $errors -gt 0 ]
finish
