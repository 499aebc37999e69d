# Unattended runs (bootbench.run): the job on every target; bootbench.run=erase:
# the targets erased and certified (bootbench erase); with
# bootbench.run=burnin and bootbench.burnin (the components) the whole
# server's burn-in (bootbench burnin: its disks bootbench.targets, else
# every disk not in use, those in bootbench.destroy written; with
# bootbench.clear_sel=on the BMC's event log saved and cleared first);
# bootbench.run=inventory: only what the machine is made of (inventory.json,
# as every run saves); or with bootbench.raid (md levels) and bootbench.zfs
# (ZFS pools) the RAID comparison on all targets together; results saved,
# then bootbench.after. Write jobs run only on disks named in
# bootbench.destroy; bootbench itself refuses the rest (exit 2, nothing
# written). A wrong boot parameter cancels the run: nothing is written to any
# disk, and the log that says why is saved.
. "${ROOT:-}/lib/bootbench/results.sh"

# Whole disks that may be targets: not the boot or results media, not
# virtual devices of the running system.
candidate_disks() {
	# the media by identity, whatever their names are now (bootbench disks --media)
	media=" $(bootbench disks --media | tr '\n' ' ') "
	for b in /sys/block/*; do
		n=${b##*/}
		case "$n" in loop*|ram*|zram*|sr*|md*|dm-*|nbd*) continue ;; esac
		case "$media" in *" /dev/$n "*) continue ;; esac
		echo "/dev/$n"
	done
}

# bootbench.targets / bootbench.destroy as /dev paths; "all" is every candidate.
resolve_list() { # value
	if [ "$1" = all ]; then candidate_disks; return; fi
	for d in $(echo "$1" | tr ',' ' '); do echo "/dev/${d#/dev/}"; done
}

# Devices may still be probing: wait up to 10 s for each named one.
wait_for_devices() {
	for d in "$@"; do
		i=0
		while [ ! -b "$d" ] && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
	done
}

# The burn-in's limits the boot parameters set (burnin_NAME=VALUE), as
# bootbench burnin --limits takes them: NAME=VALUE,...
burnin_limits() {
	params_table | awk '$1 ~ /^burnin_/ && $2 == "<burnin-limit>" { print $1 }' | while read -r p; do
		eval "v=\${BB_$(echo "$p" | tr 'a-z' 'A-Z'):-}"
		[ -z "$v" ] || printf '%s=%s\n' "${p#burnin_}" "$v"
	done | paste -sd, -
}

# bootbench.run=erase: the targets erased (bootbench.erase, .erase_verify),
# the certificates signed with bootbench.erase_key when given (fetched over
# HTTPS into a root-only file, or read from the stick) and saved in the run's
# folder with the rest; a key that cannot be had cancels the erase (exit 2).
erase_targets() { # targets destroy folder
	[ -n "$1" ] || { log "unattended run cancelled: no targets to erase (bootbench.targets=${BB_TARGETS:-})"; return 2; }
	key=""
	case "${BB_ERASE_KEY:-}" in
	'') ;;
	https://*)
		key=$BB_RUNDIR/erase-key.pem
		ca_ready
		(umask 077; bootbench fetch-config ${BB_CA_FILE:+--ca="$BB_CA_FILE"} "$BB_ERASE_KEY" "$key" 2>&1 |
			while IFS= read -r l; do log "$l"; done)
		[ -s "$key" ] || { log "erase cancelled: cannot fetch bootbench.erase_key=$BB_ERASE_KEY; nothing was written"; return 2; } ;;
	*)
		key=$BB_MEDIA/${BB_ERASE_KEY#/}
		[ -r "$key" ] || { log "erase cancelled: no bootbench.erase_key=$BB_ERASE_KEY on the stick; nothing was written"; return 2; } ;;
	esac
	wait_for_devices $1
	log "erase: ${BB_ERASE:-auto}, ${BB_ERASE_VERIFY:-full} read-back, on" $1
	bootbench erase --method="${BB_ERASE:-auto}" --verify="${BB_ERASE_VERIFY:-full}" --destroy="$2" --output="$3" \
		${key:+--key="$key"} ${BB_ERASE_OPERATOR:+--operator="$BB_ERASE_OPERATOR"} $1
	rc=$?
	log "erase: exit status $rc"
	return $rc
}

# bootbench.hook_before and hook_after: the operator's own steps around the
# run (a firmware check, a ticket, a label printer). Each is fetched over
# https (checked against bootbench.ca) or read from the stick, and runs only
# when its SHA-256 is the one the parameter gives: both are fetched and
# checked before anything runs, so a wrong one starts nothing. A hook runs
# with sh as root, its working folder and BOOTBENCH_RESULTS the run's
# results folder, BOOTBENCH_TARGETS and BOOTBENCH_DESTROY the boot's lists,
# and BOOTBENCH_CONSENT_LIMIT the same consent: bootbench's commands refuse
# any disk bootbench.destroy did not name. Its output goes to
# hook-before.log or hook-after.log among the results. One hour at most.
HOOK_TIMEOUT_S=3600

# hook_fetch NAME VALUE FILE: the script into FILE, its SHA-256 checked;
# false, having logged why, when it cannot be had or is not the one named.
hook_fetch() {
	loc=${2%%#*} want=${2#*#sha256=}
	rm -f "$3"
	case "$loc" in
	https://*)
		wait_for_address 30 || log "bootbench.$1: no network address after 30 s"
		ca_ready
		(umask 077; fetch "$loc" "$3") || { log "bootbench.$1: cannot fetch $(redact_url "$loc")"; return 1; } ;;
	*)
		src=$BB_MEDIA/${loc#/}
		[ -f "$src" ] && [ ! -L "$src" ] || { log "bootbench.$1: no file $loc on the stick"; return 1; }
		(umask 077; cp "$src" "$3") ;;
	esac
	got=$(sha256sum "$3" | cut -d' ' -f1)
	if [ "$got" != "$want" ]; then
		log "bootbench.$1: the script's SHA-256 is $got, not $want as given: not run"
		rm -f "$3"
		return 1
	fi
	log "bootbench.$1: $(redact_url "$loc"), SHA-256 checked"
}

# hook_run before|after FOLDER: runs the fetched hook; its exit status
hook_run() {
	log "hook_$1: running"
	started=$(cut -d. -f1 /proc/uptime)
	(cd "$2" && BOOTBENCH_HOOK=$1 BOOTBENCH_RESULTS=$2 BOOTBENCH_RUN=$BB_RUN BOOTBENCH_TARGETS="$(echo $targets | tr ' ' ',')" \
		BOOTBENCH_DESTROY="$destroy" BOOTBENCH_CONSENT_LIMIT="$destroy" \
		timeout "$HOOK_TIMEOUT_S" sh "$BB_RUNDIR/hook-$1.sh" < /dev/null > "$2/hook-$1.log" 2>&1)
	rc=$?
	[ $(( $(cut -d. -f1 /proc/uptime) - started )) -lt "$HOOK_TIMEOUT_S" ] ||
		echo "bootbench: the hook ran past ${HOOK_TIMEOUT_S} s and was stopped" >> "$2/hook-$1.log"
	log "hook_$1: exit status $rc ($(wc -l < "$2/hook-$1.log") lines in hook-$1.log)"
	return $rc
}

unattended() {
	# bootbench.scale holds for these runs too, not only the consoles' (90-consoles.sh)
	[ -z "${BB_SCALE:-}" ] || export BOOTBENCH_SCALE=$BB_SCALE
	[ -z "${BB_METRICS:-}" ] || export BOOTBENCH_METRICS=$BB_METRICS
	out=$BB_RUNDIR/results/$(run_folder_name)
	mkdir -p "$out"
	start_heartbeat "$out" "${BB_SAVE:-}"
	# the run's identity on every push is its folder's name; the groups it
	# pushes to are listed, to be deleted once its results are saved
	export BOOTBENCH_RUN_ID="${out##*/}" BOOTBENCH_METRICS_GROUPS="$BB_RUNDIR/metrics-groups"
	status=0 failed_targets="" hooks_ok=""
	if [ -n "$BB_PARAM_ERRORS" ]; then
		log "unattended run cancelled: wrong boot parameters ($BB_PARAM_ERRORS); nothing was written to any disk"
		status=2
	elif [ -n "${BB_MEDIA_AMBIGUOUS:-}" ] && [ -n "${BB_DESTROY:-}" ]; then
		log "unattended run cancelled: the boot medium is ambiguous ($BB_MEDIA_AMBIGUOUS); nothing was written to any disk"
		status=2
	else
		case "$BB_RUN" in
		burnin) [ -n "${BB_BURNIN:-}" ] && job=whole-server || job=/usr/share/bootbench/profiles/burnin.fio ;;
		inventory) job=inventory ;;
		erase) job=erase ;;
		*/*|*.fio) job=$BB_MEDIA/${BB_RUN#/} ;;
		*) job=/usr/share/bootbench/profiles/$BB_RUN.fio ;;
		esac
		targets=$(resolve_list "${BB_TARGETS:-}")
		destroy=$(resolve_list "${BB_DESTROY:-}" | paste -sd, -)
		hooks_ok=1
		[ -z "${BB_HOOK_BEFORE:-}" ] || hook_fetch hook_before "$BB_HOOK_BEFORE" "$BB_RUNDIR/hook-before.sh" || hooks_ok=""
		[ -z "${BB_HOOK_AFTER:-}" ] || hook_fetch hook_after "$BB_HOOK_AFTER" "$BB_RUNDIR/hook-after.sh" || hooks_ok=""
		if [ -z "$hooks_ok" ]; then
			log "unattended run cancelled: a hook cannot be had or is not the one named; nothing was run or written"
			status=2
		elif [ -n "${BB_HOOK_BEFORE:-}" ] && { hook_run before "$out"; HOOK_BEFORE_STATUS=$?; [ $HOOK_BEFORE_STATUS -ne 0 ]; }; then
			log "unattended run cancelled: bootbench.hook_before failed (exit status $HOOK_BEFORE_STATUS); nothing was run"
			status=2
		elif [ "$job" = inventory ]; then
			# a rack's audit: what each machine is made of, no disk touched
			bootbench inventory
			log "inventory: taken (inventory.json, saved with the system's description)"
		elif [ "$job" = whole-server ]; then
			# bootbench.burnin: the whole server; its limits from burnin_* lines;
			# its disks the targets (none: every disk not in use), those in
			# bootbench.destroy written (bootbench refuses a consent naming
			# no disk it tests: exit 2, nothing run)
			# bootbench.clear_sel=on: the BMC's event log saved with the
			# results and cleared before the run (--clear-sel)
			limits=$(burnin_limits) clear_sel=""
			[ "${BB_CLEAR_SEL:-off}" != on ] || clear_sel=--clear-sel
			wait_for_devices $targets
			log "burnin: ${BB_BURNIN}${BB_DURATION:+ for $BB_DURATION}${BB_IPERF:+, iperf3 to $BB_IPERF}${limits:+, limits $limits}, disks: $(echo ${targets:-every disk not in use})${destroy:+ (consent to write: $destroy)}${clear_sel:+, the BMC's event log saved and cleared first}"
			bootbench burnin --components="$BB_BURNIN" ${BB_PHASES:+--phases="$BB_PHASES"} ${BB_DURATION:+--duration="$BB_DURATION"} \
				${BB_IPERF:+--iperf="$BB_IPERF"} ${limits:+--limits="$limits"} ${destroy:+--destroy="$destroy"} \
				$clear_sel --output="$out" $targets
			status=$?
			log "burnin: exit status $status"
		elif [ "$job" = erase ]; then
			erase_targets "$targets" "$destroy" "$out"
			status=$?
		elif [ ! -r "$job" ]; then
			log "unattended run cancelled: no profile or job file '$BB_RUN'"
			status=2
		elif [ -z "$targets" ]; then
			log "unattended run cancelled: no targets (bootbench.targets=${BB_TARGETS:-})"
			status=2
		elif [ -n "${BB_RAID:-}${BB_ZFS:-}" ]; then
			wait_for_devices $targets
			log "raid: levels ${BB_RAID:-none}, ZFS pools ${BB_ZFS:-none}, profile $BB_RUN, on" $targets
			bootbench raid ${BB_RAID:+--levels="$BB_RAID"} ${BB_ZFS:+--zfs="$BB_ZFS"} --profile="$BB_RUN" \
				${destroy:+--destroy="$destroy"} --output="$out" $targets
			status=$?
			log "raid: exit status $status"
		else
			wait_for_devices $targets
			for t in $targets; do
				n=${t#/dev/}; n=$(echo "$n" | tr '/' '_')
				log "run: $BB_RUN on $t${destroy:+ (consent to write: $destroy)}"
				TARGET=$t bootbench run --output-format=json+ --output="$out/$n.json" \
					--summary="$out/$n.txt" ${destroy:+--destroy="$destroy"} "$job"
				rc=$?
				log "run: $BB_RUN on $t: exit status $rc"
				[ $rc = 0 ] || failed_targets="$failed_targets $t"
				[ $rc -le $status ] || status=$rc
			done
		fi
	fi
	describe_system "$out"
	# after the run, whatever it did: its results and the system's
	# description are there for the hook
	if [ -n "${hooks_ok:-}" ] && [ -n "${BB_HOOK_AFTER:-}" ] && [ "${HOOK_BEFORE_STATUS:-0}" -eq 0 ]; then
		hook_run after "$out"
		HOOK_AFTER_STATUS=$?
		[ $HOOK_AFTER_STATUS -eq 0 ] || [ $status -ne 0 ] || status=1
	fi
	stop_heartbeat
	write_status "$out" "$status" "$failed_targets"
	log "unattended run finished, exit status $status"
	copy_log "$out/console.log" "unattended run finished, exit status $status"
	SAVE_FAILED=""
	save_results "$out" "$BB_SAVE" || SAVE_FAILED=1
	[ -n "$SAVE_FAILED" ] || metrics_forget "$status" "$dests"
	[ -z "$SAVED_TO" ] || log "results saved to ${SAVED_TO#$BB_MEDIA/} on the stick"
}

# The after-step runs even when the run or the save failed, so an unattended
# rack never hangs on one machine.
if [ -n "${BB_RUN:-}" ]; then
	unattended
	# an earlier boot's undelivered results (45-pending.sh) go out before a power-off
	if [ -n "${BB_PENDING_PID:-}" ] && kill -0 "$BB_PENDING_PID" 2>/dev/null; then
		log "save: waiting for the earlier boot's undelivered results"
		wait "$BB_PENDING_PID"
	fi
	# results that reached only the console must not scroll away into a power-off
	if [ -n "$SAVE_FAILED" ] && [ "$BB_AFTER" != menu ] && [ "$BB_AFTER" != shell ]; then
		if [ "${BB_UNSAVED:-wait}" = proceed ]; then
			log "doing bootbench.after=$BB_AFTER although results were not delivered everywhere (bootbench.unsaved=proceed)"
		else
			log "not doing bootbench.after=$BB_AFTER: the results were not saved everywhere (they are on the console above; bootbench save --pending retries)"
			BB_AFTER=menu
		fi
	fi
	case "$BB_AFTER" in
	poweroff|reboot)
		log "$BB_AFTER"
		# the stick's writes on disk, and no other: a global sync (and
		# poweroff's own, hence -n) waits on every filesystem, a share whose
		# server died in the middle of an upload included, maybe for ever
		sync -f "$BB_MEDIA" 2>/dev/null
		umount "$BB_MEDIA" 2>/dev/null
		console_flush
		"$BB_AFTER" -f -n ;;
	esac
elif [ -n "$BB_PARAM_ERRORS" ]; then
	log "wrong boot parameters: $BB_PARAM_ERRORS"
fi
return 0
