# A UEFI HTTP boot of the ISO (the DHCP server handed the firmware its URL:
# the README's client-arch 16 and 19) runs it from a RAM disk the firmware
# keeps, which Linux does not see; its boot loader still says
# bootbench.boot=cd. What the firmware booted (UEFI's BootCurrent: bootbench
# sysinfo --booted-via) says so, and which NIC: the ISO's CD is then looked
# for once, not waited for and then called ambiguous (40-media.sh; a stick,
# which a loader fetched over HTTP may have chained to, is waited for as
# ever, and either, found, is the medium), and the config may come from
# that NIC's DHCP lease (35-config.sh).
BB_BOOTED_HTTP=""
case "${BB_BOOT:-}" in
usb|cd)
	booted=$(bootbench sysinfo --booted-via 2>/dev/null)
	case "$booted" in
	http|"http "*)
		BB_BOOTED_HTTP=${booted#http}; BB_BOOTED_HTTP=${BB_BOOTED_HTTP# }; : "${BB_BOOTED_HTTP:=its NIC unnamed}"
		case "$BB_BOOT" in
		cd) how="the ISO's CD is looked for once (an ISO fetched over HTTP is a RAM disk Linux does not see)" ;;
		*) how="the stick is waited for as ever (a loader fetched over HTTP may have chained to it)" ;;
		esac
		log "boot: the firmware booted over UEFI HTTP boot ($BB_BOOTED_HTTP); $how" ;;
	esac ;;
esac
