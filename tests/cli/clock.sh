# SPDX-License-Identifier: MIT
# The clock step at boot (rootfs/lib/bootbench/clock.sh, issue 46) on the
# host: ntpd through $MOCK (a script that prints what busybox ntpd -d -n -q
# prints and exits as it does), a fake run folder, a fake DHCP lease. Each
# case's clock.json is JSON and says what happened: stepped and by how much;
# right already (under ntpd's 0.125 s step) with the last reply's offset; no
# answer (ntpd killed by its own alarm); no server at all, said so; the
# DHCP lease's server used when bootbench.ntp names none, a lease's junk
# not; bootbench.ntp=off. write_status carries it into status.json.
. tests/lib.sh
need_commands python3 timeout
mkdir -p "$T/run/bootbench" "$T/proc" "$T/res"
echo "12.34 1.00" > "$T/proc/uptime"
cat > "$T/ntpd" <<'MOCK'
#!/bin/sh
# fake busybox ntpd: "$@" is "ntpd -d -n -q -p SERVER"; CASE says what it does
echo "$*" > "$T/ntpd.args"
echo "ntpd: sending query to $6"
case "$CASE" in
step) echo "ntpd: reply from $6: offset:+812345678.250000 delay:0.000344 status:0x24 strat:1"
      echo "ntpd: setting time to 2026-12-05 03:00:00.123456 (offset +812345678.250000s)"; exit 0 ;;
right) echo "ntpd: reply from $6: offset:-0.003125 delay:0.000344 status:0x24 strat:1"; exit 0 ;;
silent) kill -ALRM $$ ;;
failed) echo "ntpd: bad address 'ntp.bad\"name'"; exit 1 ;;
esac
MOCK
chmod +x "$T/ntpd"
export T
clock() { # CASE [VAR=VALUE...]: clock_set in a shell of its own, as 44-clock.sh runs it
	rm -f "$T/ntpd.args"
	c=$1; shift
	env CASE="$c" ROOT="$T" BB_RUNDIR="$T/run/bootbench" MOCK="$T/ntpd" CLOCK_WAIT_S=1 "$@" sh -c '
		. rootfs/lib/bootbench/boot.sh
		. rootfs/lib/bootbench/results.sh
		. rootfs/lib/bootbench/clock.sh
		clock_set
		write_status "$T/res" 0 ""' > "$T/clock.out" 2>&1
	cat "$T/clock.out" | sed 's/^/    /'
}
clock step BB_NTP=10.0.2.2
check "bootbench.ntp: ntpd asked that server once (-n -q), and it set the clock" sh -c \
	"grep -qx 'ntpd -d -n -q -p 10.0.2.2' '$T/ntpd.args' && grep -q 'clock: set from NTP server 10.0.2.2 (bootbench.ntp): it was 812345678.250000 s off' '$T/clock.out'"
check "... status.json: clock set, stepped, its offset and server" json "$T/res/status.json" \
	'd["clock"] == {"set": True, "server": "10.0.2.2", "from": "bootbench.ntp", "stepped": True, "offset_s": 812345678.25, "before": d["clock"]["before"]} and d["exit_status"] == 0'
clock right BB_NTP=ntp.example:1123
check "right already: set, not stepped, the reply's offset" json "$T/res/status.json" \
	'd["clock"]["set"] and not d["clock"]["stepped"] and d["clock"]["offset_s"] == -0.003125 and d["clock"]["server"] == "ntp.example:1123"'
clock silent BB_NTP=10.0.2.2
check "no answer: not set, said why, never fatal" sh -c \
	"grep -q 'clock: not set: no answer from NTP server 10.0.2.2 (bootbench.ntp) in 15 s' '$T/clock.out'"
check "... status.json says so" json "$T/res/status.json" 'd["clock"]["set"] is False and "no answer" in d["clock"]["why"]'
# ntpd's own words when it fails, through the image's busybox tr when built
# (it has no [:print:] class: the words once came out empty)
mkdir -p "$T/bbbin"
[ ! -x out/busybox/busybox ] || ln -sf "$PWD/out/busybox/busybox" "$T/bbbin/tr"
clock failed BB_NTP=10.0.2.2 PATH="$T/bbbin:$PATH"
check "ntpd fails: not set, in ntpd's words (its quote made safe)" \
	grep -q "clock: not set: NTP server 10.0.2.2 (bootbench.ntp): ntpd failed (ntpd: bad address 'ntp.bad'name')" "$T/clock.out"
clock step
check "no server (no bootbench.ntp, no DHCP): ntpd not run, 'not set: no NTP server'" sh -c \
	"[ ! -e '$T/ntpd.args' ] && grep -q 'clock: not set: no NTP server: neither bootbench.ntp nor a DHCP lease (none in 1 s) names one' '$T/clock.out'"
check "... status.json says so" json "$T/res/status.json" 'd["clock"]["set"] is False and d["clock"]["why"].startswith("no NTP server")'
echo eth0 > "$T/run/bootbench/dhcp-links"
mkdir -p "$T/run/bootbench/dhcp"
echo "" > "$T/run/bootbench/dhcp/eth0"
clock step
check "a lease that names none: 'no NTP server: ... nor the DHCP lease (option 42)'" json "$T/res/status.json" \
	'd["clock"]["set"] is False and d["clock"]["why"] == "no NTP server: neither bootbench.ntp nor the DHCP lease (option 42) names one"'
echo "-x;reboot 10.9.8.7 10.9.8.6" > "$T/run/bootbench/dhcp/eth0"
clock step
check "the lease's first NTP server (its junk skipped)" sh -c "grep -qx 'ntpd -d -n -q -p 10.9.8.7' '$T/ntpd.args'"
check "... status.json names it and where it came from" json "$T/res/status.json" \
	'd["clock"]["set"] and d["clock"]["server"] == "10.9.8.7" and d["clock"]["from"] == "the DHCP lease"'
clock step BB_NTP=off
check "bootbench.ntp=off: ntpd not run, not set" sh -c "[ ! -e '$T/ntpd.args' ] && grep -q 'clock: not set (bootbench.ntp=off)' '$T/clock.out'"
check "... and status.json is JSON saying so" json "$T/res/status.json" 'd["clock"] == {"set": False, "why": "bootbench.ntp=off"}'
# the boot parameter's rule (boot.sh)
for v in 10.0.2.2 ntp.example.com:123 off; do
	check "bootbench.ntp=$v is taken" sh -c ". rootfs/lib/bootbench/boot.sh; ROOT=rootfs param_check ntp '$v' >/dev/null"
done
for v in '-q' 'a;b' 'a b' '$(x)'; do
	check "bootbench.ntp='$v' is refused" sh -c ". rootfs/lib/bootbench/boot.sh; ROOT=rootfs param_check ntp '$v' | grep -q 'expected an NTP server as HOST or HOST:PORT'"
done
finish
