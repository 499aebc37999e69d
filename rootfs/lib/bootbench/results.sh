# SPDX-License-Identifier: MIT
# Saving results: one folder per run, results/<UTC time>_<DMI serial or
# hostname>/ on the stick, every file written to a temporary name, synced and
# renamed, so a power cut leaves whole files or none. On the console instead
# (PXE, ISO), each file between marker lines a log reader can cut out.

# The machine's name for result folders: the DMI serial when the vendor set
# one, else the first network card's MAC address (two machines without a
# serial must never share a folder; the hostname is the same on all of them),
# else the hostname; only characters safe on FAT.
machine_id() {
	s=$(cat "$ROOT/sys/class/dmi/id/product_serial" 2>/dev/null | tr -c 'A-Za-z0-9._-' '_' | sed 's/_*$//')
	case "$s" in ''|To_be_filled*|Default*|None|0|System_Serial*|Not_Specified)
		s=""
		for n in "$ROOT"/sys/class/net/*; do
			[ -e "$n/device" ] || continue
			m=$(cat "$n/address" 2>/dev/null)
			case "$m" in ''|00:00:00:00:00:00) continue ;; esac
			s=mac-$(echo "$m" | tr -d ':')
			break
		done
		[ -n "$s" ] || s=$(hostname) ;;
	esac
	echo "$s"
}

# Copies one file into a folder of the results medium, atomically.
save_file() { # src destdir
	name=${1##*/}
	cp "$1" "$2/.$name.tmp" && sync && mv "$2/.$name.tmp" "$2/$name" && sync
}

# Prints a file between marker lines on the console.
show_file() { # src
	echo "----- bootbench result ${1##*/} begin -----"
	cat "$1"
	echo
	echo "----- bootbench result ${1##*/} end -----"
}

# Saves every file of a finished run folder; $1 = folder in /run, $2 = where.
# Sets SAVED_TO to the folder on the stick, or leaves it empty. A stick that
# is not read-write, has too little room, or fails a write gets nothing
# half-done: the results are shown on the console instead and the return
# status is 1, so the caller does not power off and lose them.
save_results() { # rundir usb|console|none
	SAVED_TO=""
	case "$2" in
	usb)
		if ! grep -q '^results ' "$BB_RUNDIR/media" 2>/dev/null; then
			# a boot with no stick (ISO, PXE) has the console by design; a
			# stick that is there but read-only is a failed save
			if grep -q '^boot ' "$BB_RUNDIR/media" 2>/dev/null && [ "${BB_BOOT:-}" != cd ]; then
				log "saving results FAILED: the stick is not mounted read-write (write-protected?); the results follow on the console"
				for f in "$1"/*; do show_file "$f"; done
				return 1
			fi
			log "no results medium: showing the results on the console instead"
			for f in "$1"/*; do show_file "$f"; done
			return 0
		fi
		need=$(( $(du -sk "$1" | cut -f1) * 2 + 64 ))
		free=$(df -k "$BB_MEDIA" 2>/dev/null | awk 'NR == 2 { print $4 }')
		if ! awk -v m="$BB_MEDIA" '$2 == m { split($4, o, ","); ok = o[1] == "rw" } END { exit !ok }' /proc/mounts; then
			why="the stick is not mounted read-write"
		elif [ "${free:-0}" -lt "$need" ]; then
			why="the stick has ${free:-0} KiB free, the results need $need KiB"
		else
			why=""
			dest=$BB_MEDIA/results/${1##*/}
			mkdir -p "$dest" || why="cannot make $dest"
			for f in "$1"/*; do
				[ -z "$why" ] || break
				save_file "$f" "$dest" || why="writing ${f##*/} to the stick failed"
			done
		fi
		if [ -n "$why" ]; then
			log "saving results FAILED: $why; the results follow on the console"
			for f in "$1"/*; do show_file "$f"; done
			return 1
		fi
		SAVED_TO=$dest ;;
	console)
		for f in "$1"/*; do show_file "$f"; done ;;
	none) ;;
	esac
	return 0
}

# A description of the machine and its disks for the results folder: the
# readable one in system.txt, the same as JSON in sysinfo.json and disks.json.
describe_system() { # folder
	{
		echo "# $(head -n1 /etc/bootbench-release), kernel $(uname -r), $(date -u +%Y-%m-%dT%H:%M:%SZ)"
		bootbench sysinfo
		# The kernel says at boot whether shim and the firmware enforced signatures.
		if dmesg | grep -q 'Secure boot enabled'; then echo "secure boot (kernel): enabled"
		else echo "secure boot (kernel): disabled"; fi
		echo "lockdown: $(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/security/lockdown 2>/dev/null)"
		echo "cmdline: $(cat /proc/cmdline)"
		echo
		bootbench disks
	} > "$1/system.txt" 2>&1
	bootbench sysinfo --json > "$1/sysinfo.json" 2>/dev/null
	bootbench disks --json > "$1/disks.json" 2>/dev/null
}
