# Results an earlier boot could not deliver wait in the stick's spool
# (results/.pending): they are sent again now, in the background, so a
# server that was down then gets them without anyone asking.
. /lib/bootbench/results.sh
spool=$BB_MEDIA/results/.pending
if grep -q '^results ' "$BB_RUNDIR/media" 2>/dev/null && [ -s "$spool" ]; then
	log "save: $(wc -l < "$spool") undelivered destination(s) from an earlier boot: retrying in the background"
	# shellcheck disable=SC2046
	(bootbench save --stick="$BB_MEDIA" $(save_options) --pending 2>&1 | while IFS= read -r l; do log "$l"; done) &
	BB_PENDING_PID=$!	# bootbench.after waits for it (50-unattended.sh)
fi
