# SPDX-License-Identifier: MIT
# Saving results: one folder per run, <UTC time>_<DMI serial or MAC>_<run id>,
# sent by bootbench save to the stick (results/ on it) and every destination
# of bootbench.save: under a temporary name, MANIFEST.sha256 last, then one
# rename, so a power cut or a dead server leaves a whole folder or none. On
# the console (PXE, ISO), each file between marker lines a log reader can
# cut out.

# The machine's name for result folders: bootbench's one rule (sys/machine.c:
# the DMI serial unless it is a vendor's placeholder, else the first wired
# NIC's MAC, else the hostname; only characters safe on FAT). $ROOT: a
# test's fake /sys.
machine_id() {
	BOOTBENCH_SYSROOT="${ROOT:-}" "${BOOTBENCH:-bootbench}" sysinfo --machine-id 2>/dev/null || hostname
}

# A new run's folder name: UTC time, machine, and a random run id, so two
# machines never share a folder and a retried upload of one run is the same
# folder again (bootbench save makes it whole once, never twice).
run_folder_name() { # [label: the profile, raid]
	id=$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n')
	echo "$(date -u +%Y%m%dT%H%M%SZ)_$(machine_id)_${1:+$1-}$id"
}

# The options bootbench save takes from the boot parameters.
save_options() {
	echo "--timeout=${BB_SAVE_TIMEOUT:-600} --smb-vers=${BB_SMB_VERS:-3}"
	if [ -n "${BB_CA_FILE:-}" ]; then
		echo "--ca=$BB_CA_FILE"
	elif [ -n "${BB_CA:-}" ] && [ -r "$BB_MEDIA/${BB_CA#/}" ]; then
		echo "--ca=$BB_MEDIA/${BB_CA#/}"
	fi
}

# Saves a finished run folder ($1, in /run) to the destinations $2 (the
# comma-separated list of bootbench.save). With a stick mounted read-write
# for results, bootbench save writes its copy first (SAVED_TO names it).
# A stick that is read-only or too full, or a destination that could not
# be reached before bootbench.save_timeout, is a failure (status 1): the
# results are then shown on the console, the network ones wait in the
# spool, and the caller does not power off.
save_results() { # rundir destinations
	SAVED_TO=""
	# the run's page of pictures goes into the folder before any copy is made
	bootbench report --output="$1/report.html" "$1" > /dev/null 2>> "$1/console.log" ||
		log "report: $1/report.html is incomplete (see console.log)"
	dests="" want_usb="" failed=0 stick=none
	for d in $(echo "$2" | tr ',' ' '); do
		case "$d" in usb) want_usb=1 ;; none) ;; *) dests="$dests $d" ;; esac
	done
	if grep -q '^results ' "$BB_RUNDIR/media" 2>/dev/null; then
		need=$(( $(du -sk "$1" | cut -f1) * 2 + 64 ))
		free=$(df -k "$BB_MEDIA" 2>/dev/null | awk 'NR == 2 { print $4 }')
		if ! awk -v m="$BB_MEDIA" '$2 == m { split($4, o, ","); ok = o[1] == "rw" } END { exit !ok }' /proc/mounts; then
			why="the stick is not mounted read-write"
		elif [ "${free:-0}" -lt "$need" ]; then
			why="the stick has ${free:-0} KiB free, the results need $need KiB"
		else
			why="" stick=$BB_MEDIA
		fi
		[ -z "$why" ] || { log "saving results FAILED: $why; the results follow on the console"; failed=1; }
	elif [ -n "$want_usb" ]; then
		# a boot with no stick (ISO, PXE) has the console by design; a
		# stick that is there but read-only is a failed save
		if grep -q '^boot ' "$BB_RUNDIR/media" 2>/dev/null && [ "${BB_BOOT:-}" != cd ]; then
			log "saving results FAILED: the stick is not mounted read-write (write-protected?); the results follow on the console"
			failed=1
		else
			log "no results medium: showing the results on the console instead"
			dests="$dests console"
		fi
	fi
	if [ $failed = 1 ]; then
		case " $dests " in *" console "*) ;; *) dests="$dests console" ;; esac
	fi
	[ "$stick" = none ] || dests="usb$dests"
	if [ -n "$dests" ]; then
		# shellcheck disable=SC2046
		bootbench save --stick="$stick" $(save_options) $dests "$1" || failed=1
		[ "$stick" = none ] || [ ! -e "$stick/results/${1##*/}/MANIFEST.sha256" ] || SAVED_TO=$stick/results/${1##*/}
	fi
	return $failed
}

# A run going writes its heartbeat to each network destination of
# bootbench.save every 60 s (bootbench save --heartbeat: FOLDER.heartbeat.json
# beside the result folders, stamped by the share's clock) until its
# status.json is written: bootbench fleet on a share without Prometheus sees
# it running, or silent. In the background; a destination that is away
# costs the run nothing.
start_heartbeat() { # rundir destinations
	hb_dests=""
	for d in $(echo "$2" | tr ',' ' '); do
		case "$d" in usb|console|none) ;; *) hb_dests="$hb_dests $d" ;; esac
	done
	[ -n "$hb_dests" ] || return 0
	# shellcheck disable=SC2046,SC2086
	bootbench save --stick=none $(save_options) --heartbeat=60 $hb_dests "$1" > /dev/null 2>&1 &
	HEARTBEAT_PID=$!
}
# It ends after the beat in hand (a mount or a temporary file on the share
# is not left behind), given the save's timeout (30 s at most: a share that
# is away holds the run no longer) to do so, then is killed.
stop_heartbeat() {
	[ -n "${HEARTBEAT_PID:-}" ] || return 0
	kill "$HEARTBEAT_PID" 2>/dev/null
	hb_i=0 hb_limit=${BB_SAVE_TIMEOUT:-30}
	[ "$hb_limit" -le 30 ] 2>/dev/null || hb_limit=30
	while kill -0 "$HEARTBEAT_PID" 2>/dev/null && [ $hb_i -lt $(( hb_limit * 10 )) ]; do
		sleep 0.1
		hb_i=$((hb_i + 1))
	done
	kill -KILL "$HEARTBEAT_PID" 2>/dev/null
	wait "$HEARTBEAT_PID" 2>/dev/null
	HEARTBEAT_PID=""
}

# A description of the machine and its disks for the results folder: the
# readable one in system.txt, the same as JSON in sysinfo.json and disks.json,
# and its parts in inventory.json (bootbench compare --inventory reads them).
# status.json: how the unattended run ended, for bootbench fleet: what
# ran, its exit status, the targets whose run failed, and the clock's
# setting at boot (clock.sh). Each value is
# ours to write as it is: a number, bootbench.run (checked against
# [A-Za-z0-9_/.-]), /dev names (checked, or the kernel's).
write_status() { # folder status failed-targets
	{
		printf '{"bootbench_status": 1, "run": "%s", "exit_status": %d, "failed_targets": [' "${BB_RUN:-}" "$2"
		sep=""
		for t in $3; do printf '%s"%s"' "$sep" "$t"; sep=", "; done
		printf ']'
		# the boot's hooks, when there were any: their exit statuses
		[ -z "${HOOK_BEFORE_STATUS:-}" ] || printf ', "hook_before_status": %d' "$HOOK_BEFORE_STATUS"
		[ -z "${HOOK_AFTER_STATUS:-}" ] || printf ', "hook_after_status": %d' "$HOOK_AFTER_STATUS"
		# the clock at boot (clock.sh's, ours to write): set by NTP and by how much, or why not
		[ ! -s "$BB_RUNDIR/clock.json" ] || printf ', "clock": %s' "$(cat "$BB_RUNDIR/clock.json")"
		printf ', "ended": "%s"}\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	} > "$1/status.json"
}

describe_system() { # folder
	{
		echo "# $(head -n1 /etc/bootbench-release), kernel $(uname -r), $(date -u +%Y-%m-%dT%H:%M:%SZ)"
		bootbench sysinfo
		# The kernel says at boot whether shim and the firmware enforced signatures.
		if dmesg | grep -q 'Secure boot enabled'; then echo "secure boot (kernel): enabled"
		else echo "secure boot (kernel): disabled"; fi
		echo "lockdown: $(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/security/lockdown 2>/dev/null)"
		echo "cmdline: $(cat /proc/cmdline)"
		# whether programs ran at randomized addresses (bootbench.aslr): a
		# benchmark's conditions, said with its results
		va=$(cat /proc/sys/kernel/randomize_va_space 2>/dev/null)
		case "$va" in 0) va_words="off for what the boot started from its settings on" ;; 2) va_words=on ;;
		'') va_words=unknown ;; *) va_words=partial ;; esac
		echo "address randomization (bootbench.aslr): $va_words (randomize_va_space ${va:-not readable})"
		[ ! -s "$BB_RUNDIR/clock.txt" ] || echo "clock: $(cat "$BB_RUNDIR/clock.txt")"
		echo
		bootbench disks
	} > "$1/system.txt" 2>&1
	bootbench sysinfo --json > "$1/sysinfo.json" 2>/dev/null
	bootbench disks --json > "$1/disks.json" 2>/dev/null
	bootbench inventory --output="$1" > /dev/null 2>&1
	# the ssh host key's fingerprint (bootbench.ssh_key), to check a first connection by
	[ ! -s /run/bootbench/ssh-host-key.txt ] || cp /run/bootbench/ssh-host-key.txt "$1/ssh-host-key.txt"
}

# The run's Pushgateway groups (bootbench lists them in
# $BB_RUNDIR/metrics-groups: BOOTBENCH_METRICS_GROUPS) deleted once its
# results are saved somewhere other than the console, and only when it
# passed: the share then says what it did, and the gateway does not keep
# one group a disk for ever. A failed run's groups stay, their alerts
# firing, until a newer run of the machine supersedes them or someone
# deletes them (docs/operator.md). Each line is bootbench's own base64url
# path, checked again before it is a word of curl's.
metrics_forget() { # status destinations
	[ -n "${BB_METRICS:-}" ] && [ -s "$BB_RUNDIR/metrics-groups" ] || return 0
	saved=$(echo $2 | tr ' ,' '\n\n' | grep -vx -e console -e none -e '')
	if [ "$1" = 0 ] && [ -n "$saved" ]; then
		sort -u "$BB_RUNDIR/metrics-groups" | while read -r g; do
			case "$g" in /metrics/job/bootbench/machine@base64/*) ;; *) continue ;; esac
			case "$g" in *[!A-Za-z0-9@/_=-]*) continue ;; esac
			curl --silent --max-time 3 --request DELETE --output /dev/null "${BB_METRICS%/}$g" &&
				log "metrics: the run's Pushgateway group ${g#/metrics/job/bootbench/} deleted (its results are saved)"
		done
	fi
	rm -f "$BB_RUNDIR/metrics-groups"
}
