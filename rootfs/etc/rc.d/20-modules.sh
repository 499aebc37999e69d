# Drivers for the hardware present: mdev, as a daemon on the kernel's uevent
# socket, loads the module of every device that appears from now on
# (hotplug: USB disks, devices behind controllers loaded below); then one
# pass over the devices already there (coldplug), by their modalias.
# Extra modules from bootbench.modules.
# (Its output stays off the log pipe, which must close before a power-off.)
mdev -d </dev/null >/dev/null 2>&1
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
