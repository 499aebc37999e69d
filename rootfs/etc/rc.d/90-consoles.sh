# The consoles, kept by busybox init: the menu (a shell until the menu exists)
# on tty1 and on the serial consoles named by console= and bootbench.console=, shells on tty2 and
# tty3. bootbench.after=shell puts a shell on the first two instead.
ui=/usr/libexec/bootbench/console
# What every console's programs see of the boot parameters.
: > /run/bootbench/env
[ -z "${BB_SCALE:-}" ] || echo "export BOOTBENCH_SCALE=$BB_SCALE" >> /run/bootbench/env
[ -z "${BB_METRICS:-}" ] || echo "export BOOTBENCH_METRICS=$BB_METRICS" >> /run/bootbench/env
# where the menu's Save sends results, and how (no secrets: those stay in
# the root-only credentials file)
for v in BB_SAVE BB_SAVE_TIMEOUT BB_SMB_VERS BB_CA BB_CA_FILE; do
	eval "val=\${$v:-}"
	[ -z "$val" ] || printf "export %s='%s'\n" "$v" "$(printf %s "$val" | sed "s/'/'\\\\''/g")" >> /run/bootbench/env
done
[ "${BB_AFTER:-menu}" = shell ] && [ -n "${BB_RUN:-}" ] && ui="-/bin/sh"
{
	echo "tty1::respawn:$ui"
	for w in $(cat /proc/cmdline); do
		case "$w" in
		console=tty[0-9]*|console=tty) ;;
		# a console= with no port behind it (console=ttyS0 on a machine
		# without a UART) would respawn and fill tty1 with init's errors
		console=*) c=${w#console=}; c=${c%%,*}; console_usable "/dev/$c" && echo "$c::respawn:$ui" ;;
		esac
	done
	# bootbench.console (the command line's, or bootbench.conf's): the menu
	# on that port too, at its speed (init keeps the speed it finds)
	if [ -n "${BB_CONSOLE:-}" ] && set -- $(serial_console "$BB_CONSOLE") && [ -n "${1:-}" ]; then
		if console_usable "/dev/$1"; then
			[ -z "${2:-}" ] || stty -F "/dev/$1" "$2" 2>/dev/null
			echo "$1::respawn:$ui"
		else
			log "console: bootbench.console=$BB_CONSOLE: no serial port answers at /dev/$1" >&2
		fi
	fi
	echo "tty2::askfirst:-/bin/sh"
	echo "tty3::askfirst:-/bin/sh"
	echo "::ctrlaltdel:/sbin/reboot"
	echo "::shutdown:/lib/bootbench/shutdown"
} | awk '!seen[$1]++' > /etc/inittab
# Where the time went: the kernel's part (from its log: the unpack of the
# initramfs parts, then /init), and the two slowest steps before this one.
kernel=$(dmesg 2>/dev/null | awk '{ t = $0; sub(/^\[ */, "", t); sub(/\].*/, "", t) }
	/Trying to unpack rootfs/ { s = t } /Freeing initrd memory/ { e = t } /Run \/init as init process/ { i = t }
	END { if (i != "") printf "kernel %.2f s (unpack %.2f s), ", i, e - s }')
slowest=$(awk 'NR > 1 { printf "%s %.2f\n", $1, $2 - prev } { prev = $2 }' "$BB_RUNDIR/boot-times" 2>/dev/null |
	sort -k2 -rn | head -n 2 | awk '{ printf "%s%s %s s", (NR > 1 ? ", " : ""), $1, $2 }')
log "boot finished in $(cut -d' ' -f1 /proc/uptime) s: ${kernel}slowest steps ${slowest:-none}; consoles: $(cut -d: -f1 /etc/inittab | grep . | paste -sd' ' -)"
# From here on, init's children write to their own terminals.
exec >/dev/console 2>&1
