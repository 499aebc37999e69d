# bootbench.iperf_server=on: iperf3's server (bootbench iperf-server, as
# nobody) in the background, so this machine is the peer of the others'
# network burn-in (bootbench.iperf=THIS-HOST there). What it says goes to
# the boot log. Not started after wrong boot parameters.
if [ "${BB_IPERF_SERVER:-off}" = on ]; then
	if [ -n "$BB_PARAM_ERRORS" ]; then
		log "iperf-server: not started: wrong boot parameters ($BB_PARAM_ERRORS)"
	else
		log "iperf-server: starting iperf3's server on port 5201"
		(bootbench iperf-server 2>&1 | while IFS= read -r l; do log "$l"; done) &
	fi
fi
