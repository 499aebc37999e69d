# A UEFI HTTP boot of the ISO (the DHCP server handed the firmware its URL:
# the README's client-arch 16 and 19) runs it from a RAM disk the firmware
# keeps, which Linux does not see; its boot loader still says
# bootbench.boot=cd. What the firmware booted (UEFI's BootCurrent: bootbench
# sysinfo --booted-via) makes it the network boot it is: its config may come
# from DHCP (35-config.sh), and no CD is waited for, then called ambiguous
# (40-media.sh).
case "${BB_BOOT:-}" in
usb|cd)
	if [ "$(bootbench sysinfo --booted-via 2>/dev/null)" = http ]; then
		log "boot: the firmware booted over UEFI HTTP boot (the boot loader's bootbench.boot=$BB_BOOT is a RAM disk Linux does not see): a network boot"
		BB_BOOT=net
	fi ;;
esac
