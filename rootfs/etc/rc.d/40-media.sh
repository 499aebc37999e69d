# The boot medium and the results medium: the FAT partition labelled
# BOOTBENCH on the stick (both at once), or the ISO's BOOTBENCH volume (boot
# only). Its disk is never a target. The stick is mounted read-write on
# /media/bootbench for results, and its bootbench.conf read.
BB_MEDIA=/media/bootbench
: > "$BB_RUNDIR/media"
wait_for_label() {
	i=0
	while [ $i -lt "$1" ]; do
		dev=$(blkid -t LABEL=BOOTBENCH -o device 2>/dev/null | head -n1)
		[ -n "$dev" ] && { echo "$dev"; return 0; }
		sleep 0.2; i=$((i + 1))
	done
	return 1
}
# Only media the boot loader told us about are waited for: a PXE boot has none.
case "${BB_BOOT:-}" in usb|cd) tries=75 ;; *) tries=1 ;; esac
if dev=$(wait_for_label $tries); then
	disk=$dev
	part=${dev#/dev/}
	[ -e "/sys/class/block/$part/partition" ] && disk=/dev/$(basename "$(readlink -f "/sys/class/block/$part/..")")
	type=$(blkid -s TYPE -o value "$dev")
	echo "boot $disk" >> "$BB_RUNDIR/media"
	mkdir -p "$BB_MEDIA"
	if [ "$type" = vfat ] && mount -t vfat -o rw,noatime,flush "$dev" "$BB_MEDIA"; then
		echo "results $disk" >> "$BB_RUNDIR/media"
		log "media: $dev ($type) on $BB_MEDIA, read-write for results"
	else
		mount -t "$type" -o ro "$dev" "$BB_MEDIA" 2>/dev/null
		log "media: $dev ($type), read-only; results go to the console"
	fi
	params_from_conf "$BB_MEDIA/bootbench.conf"
elif [ -n "${BB_BOOT:-}" ] && [ "$BB_BOOT" != net ]; then
	log "media: no BOOTBENCH volume appeared; results go to the console"
else
	log "media: network boot, no boot medium; results go to the console"
fi
params_defaults
