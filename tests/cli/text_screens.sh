# SPDX-License-Identifier: MIT
# text_screens.sh - a command's verdicts on an 80-column console (issue 48)
# and in the menu's 73-column box: no line past the width, no word cut or
# lost (the screen holds burnin.txt's words, unfolded, in order), and each
# disk's words in its own block (tests/screen_fits.py --text). The
# burn-in's screen with three disks (one written, two only read, none
# with a self-test: a reason each), and a burn-in stopped by SIGINT
# mid-pass.
. tests/lib.sh
# 8 MiB over memory (ramdir): a minimal pass of the written one fits its share at a loaded host's
# rate, which a disk-backed file's is not (a CI run's went at 12.8 MiB/s); the words are the same
ramdir 32M
loopdev a "$T/ram/a.img" 8M
loopdev b "$T/ram/b.img" 8M
loopdev c "$T/ram/c.img" 8M
passing() { # DISK...: each one's pass is running (burnin-pass-N written, read when only read)
	for f; do pgrep -f -- "(burnin-pass|--name=read).*--filename=$f |--filename=$f .*(burnin-pass|--name=read)" > /dev/null || return 1; done
}
# burn NAME COLUMNS [INTERRUPT]: the disks component's verdicts on stdout in
# $T/NAME.screen; 4 s (80 s scaled: a minimal pass fits beside a CPU hog), 54 s when it is to be interrupted
burn() {
	mkdir -p "$T/$1"
	COLUMNS=$2 BOOTBENCH_SCALE=0.05 "$BB" burnin --components=disks --duration=${3:+10}80s --output="$T/$1" \
		--destroy="$a" "$a" "$b" "$c" > "$T/$1.screen" 2> "$T/$1.err" &
	pid=$!
	if [ -n "${3:-}" ]; then
		# stopped once every disk's pass runs (fio's job is named after the pass)
		i=0; while [ $i -lt 200 ] && ! passing "$a" "$b" "$c"; do sleep 0.1; i=$((i + 1)); done
		sleep 1
		kill -INT $pid
	fi
	wait $pid
	echo $? > "$T/$1.rc"
}
fits() { # NAME: the screen checked; what is wrong shown
	python3 tests/screen_fits.py --text --unfolded "$T/$1/burnin.txt" --device "$a" --device "$b" \
		--device "$c" < "$T/$1.screen" > "$T/$1.why" && grep -q "^  $a\$" "$T/$1.screen" ||
		{ cat "$T/$1.why" "$T/$1.screen"; return 1; }
}
burn w80 80
check "burnin's verdicts at 80 columns, three disks: no line past 80, no word cut, each disk's words in its block" fits w80
check "... the component's line as scripts read it, each disk's reason under its name" sh -c \
	"grep -q '^disks     ERROR    each device.s reasons are under its name' '$T/w80.screen' &&
	 grep -A1 '^  $b\$' '$T/w80.screen' | grep -q '^    why:  *${b#/dev/}: no self-test:'"
burn w73 73
check "... and in the menu's box (73 columns)" fits w73
burn int 80 interrupt
interrupted() {
	[ "$(cat "$T/int.rc")" = 130 ] && grep -q '^machine   INTERRUPTED stopped by SIGINT' "$T/int.screen" && fits int
}
check "a burn-in stopped by SIGINT mid-pass: INTERRUPTED, and its screen fits the same way" interrupted
check "... no disk counted tested (every pass cut short), never more than there are" \
	grep -Eq '^  disks_tested +0 of 3 ' "$T/int.screen"
finish
