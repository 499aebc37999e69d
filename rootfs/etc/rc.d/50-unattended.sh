# Unattended runs (bootbench.run): the job on every target; bootbench.run=erase:
# the targets erased and certified (bootbench erase); with
# bootbench.run=burnin and bootbench.burnin (the components) the whole
# server's burn-in (bootbench burnin); bootbench.run=inventory: only what
# the machine is made of (inventory.json, as every run saves); or with
# bootbench.raid (md levels) and bootbench.zfs (ZFS pools) the RAID
# comparison on all targets together; results saved,
# then bootbench.after. Write jobs run only on disks named in
# bootbench.destroy; bootbench itself refuses the rest (exit 2, nothing
# written). A wrong boot parameter cancels the run: nothing is written to any
# disk, and the log that says why is saved.
. /lib/bootbench/results.sh

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
	params_table | awk '$1 ~ /^burnin_/ { print $1 }' | while read -r p; do
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

unattended() {
	# bootbench.scale holds for these runs too, not only the consoles' (90-consoles.sh)
	[ -z "${BB_SCALE:-}" ] || export BOOTBENCH_SCALE=$BB_SCALE
	[ -z "${BB_METRICS:-}" ] || export BOOTBENCH_METRICS=$BB_METRICS
	out=$BB_RUNDIR/results/$(run_folder_name)
	mkdir -p "$out"
	status=0 failed_targets=""
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
		if [ "$job" = inventory ]; then
			# a rack's audit: what each machine is made of, no disk touched
			bootbench inventory
			log "inventory: taken (inventory.json, saved with the system's description)"
		elif [ "$job" = whole-server ]; then
			# bootbench.burnin: the whole server; its limits from burnin_* lines
			limits=$(burnin_limits)
			log "burnin: ${BB_BURNIN}${BB_DURATION:+ for $BB_DURATION}${BB_IPERF:+, iperf3 to $BB_IPERF}${limits:+, limits $limits}"
			bootbench burnin --components="$BB_BURNIN" ${BB_DURATION:+--duration="$BB_DURATION"} \
				${BB_IPERF:+--iperf="$BB_IPERF"} ${limits:+--limits="$limits"} --output="$out"
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
	write_status "$out" "$status" "$failed_targets"
	describe_system "$out"
	log "unattended run finished, exit status $status"
	copy_log "$out/console.log" "unattended run finished, exit status $status"
	SAVE_FAILED=""
	save_results "$out" "$BB_SAVE" || SAVE_FAILED=1
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
