# The kernel's file systems, and a log of everything this boot prints: the
# output of the steps goes through tee to the consoles and into
# /run/bootbench/console.log, which is saved with the results.
mkdir -p /proc /sys /dev /run /tmp
mount -t proc proc /proc
mount -t sysfs sysfs /sys
# the lockdown state (Secure Boot), read by bootbench raid --zfs
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null || true
mount -t devtmpfs devtmpfs /dev 2>/dev/null || mountpoint -q /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts /dev/pts
mount -t tmpfs -o mode=1777,nosuid,nodev shm /dev/shm
mount -t tmpfs -o mode=755,nosuid,nodev run /run
mount -t tmpfs -o mode=1777,nosuid,nodev tmp /tmp
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
mkdir -p "$BB_RUNDIR"
mkfifo "$BB_RUNDIR/log.fifo"
# Every console= of the command line sees the log, not only /dev/console
# (the last one): the serial line and the screen both.
# So does bootbench.console's port (a BMC's serial-over-LAN line), at its
# speed, from the first line; a wrong value is reported by 10-params.sh.
consoles=""
for w in $(cat /proc/cmdline); do
	case "$w" in
	console=*) c=${w#console=}; console_usable "/dev/${c%%,*}" && consoles="$consoles /dev/${c%%,*}" ;;
	bootbench.console=*)
		if set -- $(serial_console "${w#bootbench.console=}") && [ -n "${1:-}" ] && console_usable "/dev/$1"; then
			[ -z "${2:-}" ] || stty -F "/dev/$1" "$2" 2>/dev/null
			case " $consoles " in *" /dev/$1 "*) ;; *) consoles="$consoles /dev/$1" ;; esac
		fi ;;
	esac
done
BB_CONSOLES=${consoles:-/dev/console}
tee -a "$BB_LOG" $BB_CONSOLES < "$BB_RUNDIR/log.fifo" > /dev/null &
BB_TEE_PID=$!
exec > "$BB_RUNDIR/log.fifo" 2>&1
hostname -F /etc/hostname
log "$(cat /etc/bootbench-release | head -n1), kernel $(uname -r)"
