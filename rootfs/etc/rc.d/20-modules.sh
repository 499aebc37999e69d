# Drivers for the hardware present: mdev, as a daemon on the kernel's uevent
# socket, loads the module of every device that appears from now on
# (hotplug: USB disks, devices behind controllers loaded below); then one
# pass over the devices already there (coldplug), by their modalias.
# Extra modules from bootbench.modules.
# (Its output stays off the log pipe, which must close before a power-off.)
# mdev -d walks /sys/dev once before it forks, for nodes devtmpfs already
# made (a tenth of a second under TCG): it runs beside the coldplug, which
# waits only for its uevent socket, so that no device the coldplug's
# drivers make is missed.
mdev -d -f </dev/null >/dev/null 2>&1 &
mdev_pid=$!
i=0
until awk -v p="$mdev_pid" '$2 == 15 && $3 == p { f = 1 } END { exit !f }' /proc/net/netlink; do
	[ $i -lt 200 ] || { log "modules: mdev has no uevent socket after 2 s: hotplugged devices get no driver"; break; }
	sleep 0.01; i=$((i + 1))
done
coldplug() {
	# Every device on a bus has its modalias here; walking all of /sys/devices
	# costs a second under emulation.
	cat /sys/bus/*/devices/*/modalias 2>/dev/null | sort -u |
		xargs -r modprobe -q -b -a 2>/dev/null
}
coldplug
for m in $(echo "${BB_MODULES:-}" | tr ',' ' '); do
	modprobe "$m" || log "module $m did not load"
done
log "modules: $(wc -l < /proc/modules) loaded"
