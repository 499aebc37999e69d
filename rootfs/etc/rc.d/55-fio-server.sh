# bootbench.fio_server=on: fio's server for fio's clients (a rack driven by
# `fio --client=hosts.list job.fio`), confined by bootbench fio-server to
# the bootbench.destroy disks (written, after the consent gate's checks)
# and the bootbench.fio_read ones (read only). In the background; what it
# says goes to the boot log. Not started after wrong boot parameters.
if [ "${BB_FIO_SERVER:-off}" = on ]; then
	if [ -n "$BB_PARAM_ERRORS" ]; then
		log "fio-server: not started: wrong boot parameters ($BB_PARAM_ERRORS)"
	else
		destroy=$(resolve_list "${BB_DESTROY:-}" | paste -sd, -)
		read_devs=$(resolve_list "${BB_FIO_READ:-}" | paste -sd, -)
		# shellcheck disable=SC2086
		wait_for_devices $(echo "$destroy,$read_devs" | tr ',' ' ')
		log "fio-server: starting (writes: ${destroy:-none}; reads: ${read_devs:-none}); lab networks only: it has no authentication"
		(bootbench fio-server ${destroy:+--destroy="$destroy"} ${read_devs:+--read="$read_devs"} 2>&1 |
			while IFS= read -r l; do log "$l"; done) &
	fi
fi
