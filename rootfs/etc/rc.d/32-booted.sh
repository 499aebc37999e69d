# What the firmware booted, read once (UEFI's BootCurrent: bootbench sysinfo
# --booted-via, "http MAC", "pxe MAC", "medium" or "unknown") into
# BB_BOOTED, for this step and 35-config.sh (the booting NIC's DHCP lease).
# A UEFI HTTP boot of the ISO (the DHCP server handed the firmware its URL:
# the README's client-arch 16 and 19) runs it from a RAM disk the firmware
# keeps, which Linux does not see; its boot loader still says
# bootbench.boot=cd. BB_BOOTED_HTTP (the NIC) says so: the ISO's CD is then
# looked for once, not waited for and then called ambiguous (40-media.sh; a
# stick, which a loader fetched over HTTP may have chained to, is waited for
# as ever, and either, found, is the medium), and the config may come from
# that NIC's DHCP lease (35-config.sh).
BB_BOOTED=$(bootbench sysinfo --booted-via 2>/dev/null)
BB_BOOTED_HTTP=""
case "${BB_BOOT:-}:$BB_BOOTED" in
usb:http*|cd:http*)
	BB_BOOTED_HTTP=${BB_BOOTED#http}; BB_BOOTED_HTTP=${BB_BOOTED_HTTP# }; : "${BB_BOOTED_HTTP:=its NIC unnamed}"
	case "$BB_BOOT" in
	cd) how="the ISO's CD is looked for once (an ISO fetched over HTTP is a RAM disk Linux does not see)" ;;
	*) how="the stick is waited for as ever (a loader fetched over HTTP may have chained to it)" ;;
	esac
	log "boot: the firmware booted over UEFI HTTP boot ($BB_BOOTED_HTTP); $how" ;;
esac
