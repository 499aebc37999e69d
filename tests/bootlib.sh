# SPDX-License-Identifier: MIT
# bootlib.sh - helpers for the boot tests (tests/boot/*.sh): fresh copies of
# the artifacts, virtual test disks, one unattended boot in QEMU under a time
# limit, and reading the results back (mtools from the stick's FAT partition,
# or the marked blocks on the serial console).
. tests/lib.sh
OUT=$PWD/out
BOOT_LIMIT=${BOOT_LIMIT:-300}
# One vCPU for the suite's guests (scripts/qemu.sh's QEMU_SMP), two where a
# test asks (--smp 2: the burn-in's loads together, inventory's thread
# count). Under TCG a second vCPU mostly adds host CPU (issue 49: a
# cancelled unattended boot 11 CPU-s on one, 13.7 on two; hooks_refused's
# four boots 31 against 41; a burn-in's CPU stressor runs on every vCPU).
export QEMU_SMP=${QEMU_SMP:-1}

need_artifacts() {
	for f in bootbench-usb.img bootbench.iso pxe/pxelinux.0 vmlinuz initramfs.img boot-id; do
		[ -e "$OUT/$f" ] || { echo "out/$f is missing: run 'make image'"; exit 1; }
	done
	need_commands qemu-system-x86_64
	# what the boot loaders pass as bootbench.id, for direct kernel boots
	BOOT_ID=$(cat "$OUT/boot-id")
}

# A test disk with random contents, so a checksum shows any write.
test_disk() { # file
	head -c 64M /dev/urandom > "$1"
}
# sum_of FILE: a CRC and the length, not a SHA-256 (issue 49: 0.25 CPU-s
# for each 64 MiB disk, twice a test): what it must show is any write, not a
# forgery
sum_of() { cksum "$1" | cut -d' ' -f1,2; }
# virtio_disks N SIZE: empty images $T/d1.img .. dN.img; $disks holds their
# qemu.sh options (unquoted: $T has no spaces)
virtio_disks() {
	disks=""
	for i in $(seq 1 "$1"); do
		truncate -s "$2" "$T/d$i.img"
		disks="$disks --disk virtio:$T/d$i.img"
	done
}

# The suite's guests boot with bootbench.aslr=off (rootfs/etc/rc.d/41-aslr.sh):
# with the kernel's randomization QEMU's TCG translates each process of a
# dynamically linked program anew (docs/hacking.md has the figures). A test
# that boots the image's own default says aslr=on (usb_bios.sh).
ASLR_OFF=bootbench.aslr=off

# A copy of the stick with a bootbench.conf holding the given lines (and
# aslr=off first, unless they set aslr).
stick_with_conf() { # out-img lines...
	img=$1; shift
	cp "$OUT/bootbench-usb.img" "$img"
	case " $* " in *" aslr="*|*" bootbench.aslr="*) : > "$T/bootbench.conf" ;; *) echo "${ASLR_OFF#bootbench.}" > "$T/bootbench.conf" ;; esac
	[ $# = 0 ] || printf '%s\n' "$@" >> "$T/bootbench.conf"
	mcopy -o -i "$img@@1M" "$T/bootbench.conf" ::/bootbench.conf
}

# A stick or a PXE root booted with BIOS is booted directly (qemu.sh
# --direct: its own kernel, initramfs and command line, without SeaBIOS and
# syslinux reading them through USB, 15 s a boot under TCG, or iPXE and
# pxelinux over TFTP, 35 s), unless the test is about the boot loader and
# sets FIRMWARE_BOOT=1 (usb_bios.sh, pxe.sh, pxe_ipxe_script.sh, memtest.sh;
# the UEFI, HTTP boot and arm64 tests too).
direct() { [ -n "${FIRMWARE_BOOT:-}" ] || echo --direct; }

# Boots with scripts/qemu.sh (QEMU_SH=scripts/qemu-arm64.sh: the arm64
# tests, with FIRMWARE_BOOT=1); the serial console goes to $T/serial.log.
# Fails the test when QEMU does not power off in BOOT_LIMIT seconds.
boot() { # qemu.sh options...
	start=$(date +%s)
	case " $* " in
	*" --fw uefi "*|*" --fw secureboot "*)
		# GRUB's countdown answered (answer_boot_prompt's reason: OVMF and
		# GRUB spin a vCPU while they wait, 2 CPU-s a boot, issue 49); a test
		# that proves the countdown boots by itself sets BOOT_PROMPT=keep.
		# The monitor is this one's: a test passing its own --monitor would
		# get no Enter (none does; such a test sets BOOT_PROMPT=keep)
		if [ "${BOOT_PROMPT:-}" != keep ] && [ -z "${QEMU_SH:-}" ]; then
			: > "$T/serial.log"
			scripts/qemu.sh --serial "$T/serial.log" --timeout "$BOOT_LIMIT" --monitor "$T/boot.mon" "$@" &
			_qpid=$!
			grub_enter $_qpid
			wait $_qpid
		else
			${QEMU_SH:-scripts/qemu.sh} --serial "$T/serial.log" --timeout "$BOOT_LIMIT" "$@"
		fi ;;
	*) ${QEMU_SH:-scripts/qemu.sh} --serial "$T/serial.log" --timeout "$BOOT_LIMIT" $(direct) "$@" ;;
	esac
	rc=$?
	BOOT_SECS=$(( $(date +%s) - start ))
	keep_serial
	echo "boot: QEMU exited with $rc after ${BOOT_SECS}s"
	if [ $rc != 0 ]; then
		[ $rc = 124 ] && bad "QEMU powered off within ${BOOT_LIMIT}s" || bad "QEMU ran (exit status $rc)"
		serial_failure
		return 1
	fi
	ok "QEMU powered off (${BOOT_SECS}s)"
	return 0
}
serial_has() { grep -q "$1" "$T/serial.log"; }
# grub_enter QEMU-PID: Enter on the monitor ($T/boot.mon) once GRUB's
# countdown is on the serial console, as a person in a hurry would press it;
# gives up when QEMU exits or after 120 s (the countdown then boots as ever)
grub_enter() {
	_i=0
	while [ $_i -lt 600 ] && kill -0 "$1" 2>/dev/null; do
		if grep -aq 'will be executed automatically in' "$T/serial.log" 2>/dev/null; then
			monitor "$T/boot.mon" "sendkey ret" > /dev/null
			return 0
		fi
		sleep 0.2; _i=$((_i + 1))
	done
}

# Boots and waits for a line matching PATTERN on the serial console, then
# HOLD seconds more: succeeds when the machine is still running then (it
# did not power off), and stops it. Fails when QEMU exits first or the line
# does not come within LIMIT seconds.
# The console of each boot kept beside the runner's log (which shows a
# failed test's last 30 lines only), for whoever reads a failure: $kept.
keep_serial() {
	BOOT_N=$(( ${BOOT_N:-0} + 1 ))
	kept=$OUT/test-logs/$(basename "$0" .sh).boot$BOOT_N.serial.log
	mkdir -p "$OUT/test-logs" && tr -d '\r' < "$T/serial.log" > "$kept" 2>/dev/null
}
# After a boot that failed, the lines that say why, in brief: what the
# kernel warned of, what systemd waited on or failed, the last lines.
serial_failure() {
	echo "the console, whole: $kept"
	grep -aE 'BUG:|WARNING:|stall|blocked for|soft lockup|A start job|Timed out|Failed to|Dependency failed|Kernel panic' "$kept" | cut -c1-160 | tail -n 12
	echo "its last lines:"
	tail -n 8 "$kept" | cut -c1-160
}

boot_until() { # pattern limit hold qemu.sh options...
	pattern=$1 limit=$2 hold=$3; shift 3
	: > "$T/serial.log"
	${QEMU_SH:-scripts/qemu.sh} --serial "$T/serial.log" --timeout "$limit" $(direct) "$@" &
	qpid=$!
	start=$(date +%s)
	while kill -0 $qpid 2>/dev/null && ! serial_has "$pattern"; do sleep 1; done
	if ! serial_has "$pattern"; then
		wait $qpid
		keep_serial
		bad "the console shows '$pattern' within ${limit}s (QEMU exited with $?)"
		serial_failure
		return 1
	fi
	ok "the console shows '$pattern' ($(( $(date +%s) - start ))s)"
	sleep "$hold"
	if kill -0 $qpid 2>/dev/null; then
		ok "the machine is still running ${hold}s later"
		pkill -TERM -f "qemu-system.*file:$T/serial.log"; wait $qpid 2>/dev/null
		return 0
	fi
	wait $qpid
	bad "the machine is still running ${hold}s later (QEMU exited with $?)"
	return 1
}

# host_iperf3 [PORT]: iperf3's real server on 127.0.0.1:IPERF_PORT (a guest
# reaches it at 10.0.2.2:IPERF_PORT through user networking): PORT, or one
# free_port chooses. Not daemonized (-D would leave the test's process group
# and SERVER_PIDS): stopped when the test ends, however it ends.
host_iperf3() {
	need_commands iperf3
	IPERF_PORT=${1:-}
	[ -n "$IPERF_PORT" ] || free_port IPERF_PORT || { bad "a free port for iperf3"; finish; }
	$GUARD iperf3 -s -B 127.0.0.1 -p "$IPERF_PORT" > "$T/iperf3.log" 2>&1 &
	SERVER_PIDS="$SERVER_PIDS $!"
	i=0
	until ss -ltn "sport = :$IPERF_PORT" | grep -q LISTEN; do
		i=$((i + 1)); [ $i -lt 100 ] || { bad "iperf3's server starts on 127.0.0.1:$IPERF_PORT"; cat "$T/iperf3.log"; finish; }
		sleep 0.1
	done
}

# The one results folder on a stick, copied to $T/results.
fetch_results() { # img
	# not . and .., nor the spool (.pending), a temporary folder or the deliveries' log
	dir=$(mdir -b -i "$1@@1M" ::/results/ 2>/dev/null | grep -v '/\.[^/]*$' | grep -v '/deliveries\.log$' | head -n1)
	[ -n "$dir" ] || return 1
	rm -rf "$T/results"; mkdir -p "$T/results"
	mcopy -s -n -i "$1@@1M" "$dir/*" "$T/results/" 2>/dev/null
	ls "$T/results"
}

# A file shown on the console between marker lines, cut out to $T/console-NAME.
console_file() { # name [serial log]
	tr -d '\r' < "${2:-$T/serial.log}" | sed -n "/^----- bootbench result $1 begin -----\$/,/^----- bootbench result $1 end -----\$/p" |
		sed '1d;$d' > "$T/console-$1"
	[ -s "$T/console-$1" ]
}

# A machine of a rack booted over the network in the background (rack_guest
# NAME PARAMETERS [QEMU.SH-OPTIONS...]): the kernel and the initramfs with
# the burn-in pack given directly (as PXE gives them), its DMI serial NAME, a
# sparse 2 GiB NVMe disk $T/NAME.img, results on the console, its console in
# $T/NAME.log.
rack_guest() {
	[ -s "$T/initrd.img" ] || cat "$OUT/initramfs.img" "$OUT/burnin.img" > "$T/initrd.img"
	truncate -s 2G "$T/$1.img"	# sparse: the quick profile reads and writes its first GiB
	_name=$1 _params=$2; shift 2
	scripts/qemu.sh --timeout "$BOOT_LIMIT" --serial "$T/$_name.log" --disk nvme:"$T/$_name.img" \
		--smbios "type=1,manufacturer=Acme,product=R100,serial=$_name" "$@" \
		--kernel "$OUT/vmlinuz" --initrd "$T/initrd.img" --append "console=ttyS0,115200 bootbench.boot=net \
bootbench.id=$BOOT_ID $ASLR_OFF bootbench.save=console $_params" > /dev/null 2>&1 &
}

# After a boot that showed its results on the console: the NVMe disk was
# written (with consent) and its JSON is there, whole.
check_console_results() {
	check "the disk was written (consent given)" [ "$(sum_of "$T/nvme.img")" != "$before" ]
	if console_file nvme0n1.json; then
		check_smoke_json "$T/console-nvme0n1.json"
	else
		bad "the result JSON is on the console"
	fi
}

# The smoke profile's unattended runs here are scaled to an eighth
# (bootbench.scale): 2 MiB each way of its 16 MiB, 512 I/Os a job. What
# these boots check is the unattended path (consent, the run, its results
# saved), not the disk's figures; the whole 16 MiB under TCG took 4.7 s of
# a busy guest a boot (issue 49).
SMOKE_SCALE=0.125
SMOKE_MIB=$(awk -v s=$SMOKE_SCALE 'BEGIN { print int(16 * s) }')	# scaled sizes are whole MiB, rounded down
# The JSON of the smoke profile on the NVMe disk: fio's layout, both jobs
# moved their SMOKE_MIB MiB without error, and the device is the one we gave.
check_smoke_json() { # file
	check "result is JSON in fio's layout" json "$1" '"fio version" in d and len(d["jobs"]) == 2'
	check "the write job wrote $SMOKE_MIB MiB (16 MiB scaled by $SMOKE_SCALE) without error" json "$1" \
		"d['jobs'][0]['error'] == 0 and d['jobs'][0]['write']['io_bytes'] == $SMOKE_MIB << 20"
	check "the read job read $SMOKE_MIB MiB without error" json "$1" \
		"d['jobs'][1]['error'] == 0 and d['jobs'][1]['read']['io_bytes'] == $SMOKE_MIB << 20"
	check "the device identity is the virtual NVMe disk" json "$1" \
		'"BBNVME1" in json.dumps(d["bootbench"])'
}

# Shared by the USB boot tests: one unattended smoke run with consent on a
# virtual NVMe disk, booted from a copy of out/bootbench-usb.img.
usb_unattended() { # firmware
	need_artifacts
	usb_smoke_stick after=poweroff
	boot --fw "$1" --usb "$T/stick.img" --disk nvme:"$T/nvme.img" --disk scsi:"$T/scsi.img" || return 0
	usb_smoke_checks
}
# usb_smoke_stick CONF-LINES...: the stick ($T/stick.img) with the smoke
# run's bootbench.conf and CONF-LINES (its after=), the NVMe disk it writes
# ($T/nvme.img, its sum in $before) and a SCSI disk ($T/scsi.img)
usb_smoke_stick() {
	stick_with_conf "$T/stick.img" aslr=${USB_ASLR:-off} run=smoke scale=$SMOKE_SCALE targets=/dev/nvme0n1 destroy=/dev/nvme0n1 save=usb "$@"
	test_disk "$T/nvme.img"
	truncate -s 64M "$T/scsi.img"
	before=$(sum_of "$T/nvme.img")
}
# usb_smoke_checks: after the boot of usb_smoke_stick's stick, its console
# in $T/serial.log: the run, the disk written, the results on the stick
usb_smoke_checks() {
	check "the console reached the unattended run" serial_has 'run: smoke on /dev/nvme0n1: exit status 0'
	check "the disk was written (consent given)" [ "$(sum_of "$T/nvme.img")" != "$before" ]
	if fetch_results "$T/stick.img"; then
		ok "a results folder is on the stick"
	else
		bad "a results folder is on the stick"
		return 0
	fi
	check_smoke_json "$T/results/nvme0n1.json"
	check "the human summary is saved" grep -q 'smoke-randwrite: (groupid=0' "$T/results/nvme0n1.txt"
	check "the console log is saved" grep -q 'unattended run finished, exit status 0' "$T/results/console.log"
	check "the system description is saved" grep -q '^CPU: ' "$T/results/system.txt"
	check "... saying whether the programs' addresses were randomized: ${USB_ASLR:-off} (bootbench.aslr)" \
		grep -q "^address randomization (bootbench.aslr): $([ "${USB_ASLR:-off}" = on ] && echo "on (randomize_va_space 2)" ||
			echo "off for what the boot started from its settings on (randomize_va_space 0)")\$" "$T/results/system.txt"
	check "sysinfo.json is saved, with the guest's $QEMU_SMP vCPU(s)" json "$T/results/sysinfo.json" "d['cpu']['cpus'] == $QEMU_SMP"
	check "disks.json names the stick as boot and results medium" json "$T/results/disks.json" \
		'any(x["boot_medium"] and x["results_medium"] and x["transport"] == "usb" for x in d["disks"])'
	check "disks.json has the NVMe disk with its serial and health" json "$T/results/disks.json" \
		'any(x["serial"] == "BBNVME1" and "nvme_health" in x for x in d["disks"])'
	check "disks.json gives the NVMe disk udev's by-id name" json "$T/results/disks.json" \
		'any(x["by_id"] == "/dev/disk/by-id/nvme-QEMU_NVMe_Ctrl_BBNVME1" for x in d["disks"])'
	check "disks.json has the SCSI disk with its serial and smartctl's health" json "$T/results/disks.json" \
		'any(x["serial"] == "BBSCSI2" and "smart" in x for x in d["disks"])' 
}

# Shared by the PXE boot tests: a copy of out/pxe whose boot config (CONFIG,
# relative to the TFTP root) gets the unattended parameters on the kernel
# command line, as a datacenter would set them; booted from QEMU's user-mode
# TFTP; results on the serial console.
pxe_unattended() { # firmware bootfile config
	need_artifacts
	cp -r "$OUT/pxe" "$T/tftp"
	sed -i '0,/bootbench.boot=net /s//bootbench.boot=net '$ASLR_OFF' bootbench.run=smoke bootbench.scale='$SMOKE_SCALE' bootbench.targets=all bootbench.destroy=all bootbench.save=console bootbench.after=poweroff /' \
		"$T/tftp/$3"
	test_disk "$T/nvme.img"
	before=$(sum_of "$T/nvme.img")
	boot --fw "$1" --pxe "$T/tftp" --bootfile "$2" --disk nvme:"$T/nvme.img" || return 0
	check "the kernel came over the network" serial_has 'media: network boot, no boot medium'
	check "targets=all found the NVMe disk" serial_has 'run: smoke on /dev/nvme0n1: exit status 0'
	check_console_results
}

# The serial console in tmux, driven as a person would: keys sent, the screen
# read back. console_boot WIDTH HEIGHT "QEMU-OPTIONS": boots in the
# background (QEMU killed after BOOT_LIMIT); the server goes at exit.
console_boot() {
	# a tmux server of its own for each boot: a new session on the socket of
	# one just killed can reach that server as it exits ("server exited
	# unexpectedly", seen in a fresh root's burnin_bmc.sh)
	BOOTS=$((${BOOTS:-0} + 1))
	TM="tmux -L bbtest$$.$BOOTS"
	TM_SOCKETS="${TM_SOCKETS:-} bbtest$$.$BOOTS"
	$TM new-session -d -s vm -x "$1" -y "$2" \
		"${QEMU_SH:-scripts/qemu.sh} $3 $(direct) --timeout $BOOT_LIMIT; echo QEMU-EXITED; sleep 120"
	trap 'for s in $TM_SOCKETS; do tmux -L "$s" kill-server 2>/dev/null; done; cleanup' EXIT
	[ "${BOOT_PROMPT:-}" = keep ] || answer_boot_prompt &
}
screen() { $TM capture-pane -p -J -t vm; }
# The boot loaders wait 2 s for a person (syslinux's boot: prompt, GRUB's
# countdown; an installed Debian's GRUB 5 s): Enter as soon as one shows
# boots the default at once, as a person in a hurry would, and gives each
# boot its 2 s back. A test that types at the loader itself sets
# BOOT_PROMPT=keep before console_boot.
answer_boot_prompt() {
	for _i in $(seq 1 600); do
		_s=$(screen 2>/dev/null) || return 0
		case "$_s" in *QEMU-EXITED*|*"bootbench: ["*|*"Linux version"*) return 0 ;; esac
		if printf '%s\n' "$_s" | grep -qE '^boot: *$|will be executed automatically in'; then
			$TM send-keys -t vm Enter
			return 0
		fi
		sleep 0.2
	done
}
# shows PATTERN: true if the screen shows it; if not, the screen goes to the log
shows() {
	screen | grep -q -- "$1" && return 0
	echo "--- screen without '$1':"; screen | grep -v "^ *$" | tail -n 20
	return 1
}
# wait_for TEXT SECONDS [E]: true once the screen shows TEXT (with E: an extended regex)
wait_for() {
	i=0
	while [ $i -lt $(( $2 * 2 )) ]; do
		screen | grep -q${3:-F} -- "$1" && return 0
		sleep 0.5; i=$((i + 1))
	done
	echo "--- screen while waiting for '$1':"; screen | grep -v "^ *$" | tail -n 40
	return 1
}
keys() { $TM send-keys -t vm "$@"; sleep 1; }
type_line() { $TM send-keys -t vm "$1" Enter; }
step() { # description text seconds [E]: a check that waits for the screen (E: a regex)
	_t0=$(date +%s)
	if wait_for "$2" "$3" "${4:-F}"; then ok "$1 ($(( $(date +%s) - _t0 ))s)"; else bad "$1"; finish; fi
}
# step_result DESCRIPTION NAME TEXT SECONDS: waits for NAME=<number>, an exit
# status a typed line prints last (after what the checks read: the screen
# is checked as soon as the marker is on it), then checks it shows TEXT. A run
# that failed ends the wait as soon as its line is out, its screen in the log.
step_result() {
	_t0=$(date +%s)
	if wait_for "(^| )$2=[0-9]" "$4" E && shows "$3"; then ok "$1 ($(( $(date +%s) - _t0 ))s)"; else bad "$1"; finish; fi
}

# fits NAME: the screen now (as a person sees it, 80x24) goes to the log,
# and passes when every line fits it and no text in a dialog box runs into
# the box's edge: bootbench's screens keep a blank column before each
# right-hand border, so text there is text dialog cut off (a line wider
# than its box). tests/screen_fits.py says which line.
fits() {
	echo "--- screen: $1"
	$TM capture-pane -p -t vm | sed 's/ *$//'
	if $TM capture-pane -p -t vm | python3 tests/screen_fits.py; then ok "$1 fits 80x24"
	else bad "$1 fits 80x24"; fi
}
# menu_pick N: the menu's Nth entry (0 the first), by the arrow keys
menu_pick() {
	sleep 2	# dialog drops what is typed while it starts
	# the menu starts on its first entry; the keys at once (no Home: the
	# console's terminal type has no such key, dialog reads an Esc)
	set -- $(seq "$1" | sed 's/.*/Down/') Enter
	keys "$@"
}

# menu_shell: a check's way from the menu, on the screen, to the shell
# (the menu's entry 7), as a person would
menu_shell() {
	step "the menu is on the screen" "Esc goes back" 30
	sleep 2	# dialog drops what is typed while it starts
	keys 7 Enter
	step "the shell is reached" "Type 'exit' to return to the menu." 30
}

# From the menu: Run a profile -> quick -> the first disk offered, ticked ->
# consent typed as NAME; the run then starts.
menu_start_quick() { # name
	keys 3 Enter
	step "Run a profile lists the profiles" "Which method?" 30
	keys Enter
	step "the disks of quick are offered" "quick: disks" 30
	keys Space Enter
	step "consent asks for the names" "Type the device names" 30
	keys "$1" Enter
}
# From the menu: Power off, confirmed; QEMU exits.
menu_power_off() {
	sleep 2	# dialog drops what is typed while it starts
	keys 9 Enter
	step "power off asks first" "Power off now?" 30
	keys Enter
	step "the machine powers off" "QEMU-EXITED" 90
}

# monitor SOCKET COMMAND: one command to QEMU's human monitor (qemu.sh
# --monitor SOCKET); prints its answer.
monitor() {
	python3 - "$1" "$2" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
for _ in range(50):
    try:
        s.connect(sys.argv[1]); break
    except OSError:
        time.sleep(0.2)
def until_prompt():
    out = b""
    s.settimeout(120)
    while not out.endswith(b"(qemu) "):
        b = s.recv(4096)
        if not b:
            break
        out += b
    return out.decode(errors="replace")
until_prompt()
s.sendall(sys.argv[2].encode() + b"\n")
# the monitor echoes the command (with line editing codes) before its answer
import re
answer = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", until_prompt()).replace("\r", "").split("\n")[1:]
print("\n".join(l for l in answer if l.strip() and not l.startswith("(qemu)")).strip())
PY
}

# The shared guests (issue 49: boot once, check many). A fixture
# (tests/boot/shared_guest_*.sh) boots one stick with the disks of all its
# checks and runs the checks its "# checks:" line names (tests/guest/NAME.sh)
# one after another against that guest, each from the menu and back to it;
# then it powers the guest off. The runner reports each check as a test of
# its own, from the result the fixture writes for it as it ends.
#
# A check runs twice: "sh tests/guest/NAME.sh prepare" on the host before
# the boot makes its disks in $GUEST (named after it: NAME.img, which the
# fixture attaches), then "sh tests/guest/NAME.sh" against the running
# guest (guest_attach), which it leaves as it found it: at the menu, the
# others' disks untouched, the guest's /tmp without its files (the next
# check's may have their names). Its "# screen: WxH" line is the console's
# size for it at the menu (the fixture's when it has none); its
# "# timeout: N" its limit, as a test's.

# console_size W H: the console's window, as tmux shows it (the guest's
# serial line says 80x24 whatever it is: a larger window only keeps lines
# wider than 80 columns whole and more of them on the screen)
# (its history cleared first: a window made taller takes lines back from
# it, above what the guest drew, which the guest's cursor no longer reaches)
console_size() {
	$TM clear-history -t vm
	$TM resize-window -t vm -x "$1" -y "$2" >/dev/null
}

# menu_sync: from the menu, the shell's sync, and the menu again: what the
# guest wrote to its disks (the stick's results) is on them for the host
menu_sync() {
	sleep 2	# dialog drops what is typed while it starts
	keys 7 Enter
	step "the shell, to sync the disks" "Type 'exit' to return to the menu." 30
	type_line "clear; sync; echo SYNCED=\$((0))"
	step_result "... synced" SYNCED "SYNCED=0" 60
	type_line "exit"
	step "... and back in the menu" "Esc goes back" 30
}

# In a check: the fixture's guest (its tmux server) and its files ($GUEST)
guest_attach() {
	if [ -z "${GUEST_TMUX:-}" ] || [ ! -d "${GUEST:-}" ]; then
		echo "$0 is a check of a shared guest: run the fixture that names it (tests/boot/shared_guest_*.sh)"
		exit 2
	fi
	TM="tmux -L $GUEST_TMUX"
}

# at_menu: the menu is on the screen
at_menu() { screen 2>/dev/null | grep -q 'Esc goes back'; }

# guest_to_menu: the menu again, from wherever a failed check left the
# guest (a dialog, the shell, a command still running, a chroot's shell):
# Esc out of dialogs, Ctrl-C to what runs, exit from a shell's prompt.
guest_to_menu() {
	for _try in 1 2 3 4 5 6; do
		at_menu && return 0
		$TM send-keys -t vm Escape; sleep 2
		at_menu && return 0
		$TM send-keys -t vm C-c; sleep 2
		if screen | grep -v '^ *$' | tail -n 1 | grep -qE '[#$] *$'; then
			type_line "clear; exit"; sleep 3
		fi
	done
	wait_for 'Esc goes back' 30 > /dev/null
}

# The CPU-seconds so far of this test's cgroup (the runner's: the guest's
# and every check's), or without one (a run outside the runner) of its QEMU.
guest_cpu() {
	_cg=$(awk -F: '$2 ~ /(^|,)cpuacct(,|$)/ { print $3 }' /proc/self/cgroup)
	if [ -n "$_cg" ] && [ "$_cg" != / ] && [ -r "/sys/fs/cgroup/cpuacct$_cg/cpuacct.usage" ]; then
		awk '{ printf "%.1f", $1 / 1e9 }' "/sys/fs/cgroup/cpuacct$_cg/cpuacct.usage"
		return
	fi
	_cg=$(awk -F: '$1 == 0 { print $3 }' /proc/self/cgroup)
	if [ -n "$_cg" ] && [ "$_cg" != / ] && [ -r "/sys/fs/cgroup$_cg/cpu.stat" ]; then
		awk '$1 == "usage_usec" { printf "%.1f", $2 / 1e6 }' "/sys/fs/cgroup$_cg/cpu.stat"
		return
	fi
	_q=$(pgrep -f "^qemu-system.*$GUEST/stick.img" | head -n 1)
	awk -v hz="$(getconf CLK_TCK)" '{ printf "%.1f", ($14 + $15) / hz }' "/proc/${_q:-self}/stat" 2>/dev/null || echo 0
}

# guest_result NAME RC SECONDS LIMIT CPU [WHY]: a check's result, where the
# runner reads a test's ("RC SECONDS LIMIT CPU-S"); WHY is added to its log
guest_result() {
	[ -z "${6:-}" ] || echo "FAILED: $6" >> "$GUEST_LOGS/$1.sh.log"
	echo "$2 $3 $4 $5" > "$GUEST_LOGS/$1.sh.result.tmp"
	mv "$GUEST_LOGS/$1.sh.result.tmp" "$GUEST_LOGS/$1.sh.result"
	case $2 in 0) _v=PASS ;; 77) _v=SKIP ;; *) _v=FAIL ;; esac
	echo "check $1.sh: $_v (exit $2, ${3}s, $5 CPU-s)${6:+: $6}"
}

# guest_prepare: $GUEST (the fixture's, or $T/guest), and in it each
# check's disks (its prepare), for
# the checks this run asked for (GUEST_CHECKS, from the runner: all of the
# "# checks:" line when empty). Logs and results go where the runner keeps
# them (GUEST_LOGS: out/test-logs).
guest_prepare() {
	GUEST=${GUEST:-$T/guest} GUEST_LOGS=${GUEST_LOGS:-$OUT/test-logs}
	export GUEST GUEST_LOGS
	mkdir -p "$GUEST" "$GUEST_LOGS"
	guest_checks=${GUEST_CHECKS:-$(sed -n 's/^# checks: //p' "$0")}
	guest_ready=""
	for _c in $guest_checks; do
		[ -f "tests/guest/$_c.sh" ] || { echo "$0: no check tests/guest/$_c.sh"; exit 1; }
		rm -f "$GUEST_LOGS/$_c.sh.result"
		echo "=== $_c.sh: prepare (on the host)" > "$GUEST_LOGS/$_c.sh.log"
		if sh "tests/guest/$_c.sh" prepare >> "$GUEST_LOGS/$_c.sh.log" 2>&1; then
			guest_ready="$guest_ready $_c"
		else
			guest_result "$_c" 1 0 0 0 "its disks could not be made (prepare, above)"
		fi
	done
}

# shared_guest W H "QEMU-OPTIONS": boots the guest, its console WxH (a
# disk of a check not prepared, not asked for or failed, is attached
# empty: the others keep their places, and so their names and serials),
# waits for its menu, runs
# the checks in turn and powers it off. A check fails when it fails, when
# its limit passes, or when it leaves the guest away from the menu; the
# guest is then brought back to the menu for the next (guest_to_menu), and
# when it does not come back, the checks left are failed as not run.
shared_guest() {
	_w=$1 _h=$2
	for _f in $(echo "$3" | grep -o "$GUEST/[^' ]*\.img"); do
		[ -e "$_f" ] || truncate -s 64M "$_f"
	done
	console_boot "$_w" "$_h" "$3"
	GUEST_TMUX=${TM#tmux -L }
	export GUEST_TMUX
	_t0=$(date +%s)
	if wait_for "Esc goes back" 240; then
		ok "the menu comes up on the serial console ($(( $(date +%s) - _t0 ))s)"
		_wedged=""
	else
		bad "the menu comes up on the serial console"
		_wedged="the guest did not come up to its menu"
	fi
	echo "the boot: ${GUEST_BOOT_CPU:=$(guest_cpu)} CPU-s (QEMU, the kernel, the services), $(( $(date +%s) - _t0 ))s to the menu"
	for _c in $guest_ready; do
		if [ -n "$_wedged" ]; then
			guest_result "$_c" 1 0 0 0 "not run: $_wedged"
			continue
		fi
		_size=$(sed -n 's/^# screen: \([0-9]*x[0-9]*\)$/\1/p' "tests/guest/$_c.sh" | head -n 1)
		_size=${_size:-${_w}x$_h}
		[ "$_size" = "${_w}x$_h" ] || console_size "${_size%x*}" "${_size#*x}"
		_limit=$(sed -n 's/^# timeout: \([0-9][0-9]*\)$/\1/p' "tests/guest/$_c.sh" | head -n 1)
		_limit=$(( ${_limit:-300} * ${BOOT_JOBS:-3} ))
		_cpu0=$(guest_cpu) _s0=$(date +%s)
		echo "=== $_c.sh: in the shared guest $(basename "$0") at $_size" >> "$GUEST_LOGS/$_c.sh.log"
		timeout --foreground -k 10 "$_limit" sh "tests/guest/$_c.sh" >> "$GUEST_LOGS/$_c.sh.log" 2>&1
		_rc=$? _why=""
		# 137: still running 10 s after timeout's TERM (a shell waits for
		# its foreground command before its trap runs), then killed
		case $_rc in 124|137) _rc=124 _why="its limit of ${_limit}s passed" ;; esac
		if ! at_menu; then
			echo "--- the screen it left:" >> "$GUEST_LOGS/$_c.sh.log"
			screen | grep -v '^ *$' | tail -n 20 >> "$GUEST_LOGS/$_c.sh.log"
			if [ $_rc = 0 ] || [ $_rc = 77 ]; then _rc=1 _why="it left the guest away from the menu"; fi
			guest_to_menu >/dev/null || _wedged="$_c.sh left the guest away from its menu, and Esc, Ctrl-C and exit did not bring it back"
		fi
		[ "$_size" = "${_w}x$_h" ] || console_size "$_w" "$_h"
		guest_result "$_c" $_rc $(( $(date +%s) - _s0 )) "$_limit" \
			"$(awk -v a="$_cpu0" -v b="$(guest_cpu)" 'BEGIN { printf "%.1f", b - a }')" "$_why"
	done
	[ -n "$_wedged" ] && { bad "$_wedged"; finish; }
	menu_power_off
	finish
}
