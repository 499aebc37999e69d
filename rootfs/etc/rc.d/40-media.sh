# The boot medium and the results medium. A label can be shared (a reused
# stick, a disk once imaged with bootbench), so the boot medium is the
# BOOTBENCH volume holding /boot/ID, the file only this build's media have,
# whose name every boot loader passes as bootbench.id. On the stick it is
# both media (mounted read-write on /media/bootbench, its bootbench.conf
# read); the ISO is the boot medium only. Their disks are never targets.
# Two volumes with this build's id, or none when one was expected, make it
# ambiguous: every labelled disk is then kept out of the targets and
# unattended writes are refused (50-unattended.sh). Their bootbench.conf is
# still read when all of them hold the same one (copies of one stick), so an
# unattended rack reaches the refusal and its bootbench.after instead of
# waiting in the menu. A network boot (PXE, or UEFI HTTP boot: 32-booted.sh)
# has no medium: a stick's bootbench.conf is read, and results saved there, only
# with bootbench.stick=use.
BB_MEDIA=/media/bootbench
BB_MEDIA_AMBIGUOUS=""
: > "$BB_RUNDIR/media"

labelled() { blkid -t LABEL=BOOTBENCH -o device 2>/dev/null; }

# The whole disk of a partition (itself for a whole disk).
disk_of() { # /dev/X
	p=${1#/dev/}
	if [ -e "/sys/class/block/$p/partition" ]; then
		echo "/dev/$(basename "$(readlink -f "/sys/class/block/$p/..")")"
	else
		echo "$1"
	fi
}

# Of the volumes $@, those holding /boot/$BB_ID, looked at read-only.
holding_id() { # dev...
	mkdir -p /run/bootbench/probe
	for d in "$@"; do
		t=$(blkid -s TYPE -o value "$d")
		mount -t "$t" -o ro "$d" /run/bootbench/probe 2>/dev/null || continue
		[ -e "/run/bootbench/probe/boot/$BB_ID" ] && echo "$d"
		umount /run/bootbench/probe
	done
}

# The one bootbench.conf the volumes $@ all hold, copied to $1; fails if any
# lacks it or two differ.
same_conf() { # copy dev...
	copy=$1; shift
	rm -f "$copy"
	for d in "$@"; do
		t=$(blkid -s TYPE -o value "$d")
		mount -t "$t" -o ro "$d" /run/bootbench/probe 2>/dev/null || return 1
		if [ ! -f "$copy" ]; then cp /run/bootbench/probe/bootbench.conf "$copy" 2>/dev/null
		else cmp -s /run/bootbench/probe/bootbench.conf "$copy"; fi
		ok=$?
		umount /run/bootbench/probe
		[ $ok -eq 0 ] || { rm -f "$copy"; return 1; }
	done
}

# Whether a volume sits on the kind of device the boot loader named: a USB
# disk for bootbench.boot=usb, a CD drive for cd.
on_boot_device() { # /dev/X
	d=$(disk_of "$1")
	case "${BB_BOOT:-}" in
	usb) readlink -f "/sys/class/block/${d#/dev/}" | grep -q '/usb' ;;
	cd) case "$d" in /dev/sr*) true ;; *) false ;; esac ;;
	*) true ;;
	esac
}

# Waits up to $1 x 0.2 s for the volumes with this build's id, until one is
# on the device the firmware booted from (a USB stick shows up later than a
# virtio or NVMe disk: a twin found first must not win); prints them all.
# The first try takes the labelled volumes found before (one blkid less:
# a quarter of this step under TCG).
wait_for_medium() { # tries
	i=0
	while [ $i -lt "$1" ]; do
		[ $i -eq 0 ] || labels=$(labelled)
		found=$(holding_id $labels)
		for d in $found; do
			on_boot_device "$d" && { echo "$found"; return 0; }
		done
		i=$((i + 1))
		[ $i -lt "$1" ] && sleep 0.2
	done
	[ -n "$found" ] && echo "$found"
}

# A medium's line for $BB_RUNDIR/media: its role, its whole disk, and that
# disk's identity (model, serial, size): the consent gate recognises the
# stick by it even when it re-enumerates under another name, and the name it
# left to another disk does not carry it.
medium() { # boot|results dev
	disk=$(disk_of "$2")
	echo "$1 $disk $(bootbench disks --identity="$disk" 2>/dev/null)" >> "$BB_RUNDIR/media"
}

# Mounts the stick for results; read-write only if the kernel really made it so.
mount_results() { # dev type
	mkdir -p "$BB_MEDIA"
	if [ "$2" = vfat ] && mount -t vfat -o rw,noatime,flush "$1" "$BB_MEDIA" 2>/dev/null &&
	   awk -v m="$BB_MEDIA" '$2 == m { split($4, o, ","); exit o[1] == "rw" ? 0 : 1 }' /proc/mounts; then
		medium results "$1"
		log "media: $1 ($2) on $BB_MEDIA, read-write for results"
		return 0
	fi
	# busybox mount falls back to read-only without saying so (a locked stick)
	mountpoint -q "$BB_MEDIA" || mount -t "$2" -o ro "$1" "$BB_MEDIA" 2>/dev/null
	log "media: $1 ($2), read-only; results go to the console"
}

case "${BB_BOOT:-}" in usb|cd) tries=75 ;; *) tries=1 ;; esac
# the ISO booted over UEFI HTTP boot (32-booted.sh): looked for once, not
# waited for. A stick (bootbench.boot=usb) is waited for as ever: a loader
# fetched over HTTP may have chained to it, and it shows up late.
[ -z "${BB_BOOTED_HTTP:-}" ] || [ "$BB_BOOT" != cd ] || tries=1
if [ "${BB_BOOT:-}" = net ] && [ "${BB_STICK:-}" != use ]; then
	log "media: network boot, no boot medium; results go to the console (bootbench.stick=use reads a stick)"
elif labels=$(labelled); [ -z "${BB_ID:-}" ] && [ -n "$labels" ]; then
	# a boot loader that passed no id (an old or hand-written config)
	BB_MEDIA_AMBIGUOUS="no bootbench.id on the command line to tell the boot medium"
elif found=$(wait_for_medium $tries) && [ -n "$found" ]; then
	if [ "$(echo "$found" | wc -l)" -gt 1 ]; then
		BB_MEDIA_AMBIGUOUS="$(echo "$found" | paste -sd' ' -) all hold this build's id"
		if same_conf "$BB_RUNDIR/ambiguous.conf" $found; then
			log "media: the volumes holding this build's id have the same bootbench.conf; it is read"
			params_from_conf "$BB_RUNDIR/ambiguous.conf"
		fi
	else
		dev=$found
		type=$(blkid -s TYPE -o value "$dev")
		medium boot "$dev"
		mount_results "$dev" "$type"
		params_from_conf "$BB_MEDIA/bootbench.conf"
	fi
elif [ -n "${BB_BOOTED_HTTP:-}" ]; then
	# the ISO the firmware fetched: a RAM disk Linux does not see
	log "media: network boot (UEFI HTTP boot), no boot medium; results go to the console"
	BB_BOOT=net
elif [ -n "${BB_BOOT:-}" ] && [ "$BB_BOOT" != net ]; then
	BB_MEDIA_AMBIGUOUS="no BOOTBENCH volume holds this build's id ($BB_ID)"
else
	log "media: no boot medium; results go to the console"
fi
if [ -n "$BB_MEDIA_AMBIGUOUS" ]; then
	# no disk that might be the stick is a target, and nothing is written unattended
	for d in $(labelled); do medium boot "$d"; done
	log "media: the boot medium is ambiguous: $BB_MEDIA_AMBIGUOUS; every BOOTBENCH disk is kept out of the targets, unattended writes are refused, results go to the console"
fi
params_defaults
# bootbench.syslog from bootbench.conf or the fetched config (a command line's started at 25-syslog.sh)
syslog_start
