# SPDX-License-Identifier: MIT
# The guest's network, as scripts/qemu.sh and scripts/qemu-arm64.sh both
# give it (sourced by them, with their options read): NETDEV for QEMU's
# -netdev. QEMU's user-mode network, with its TFTP root for --pxe and the
# boot file its DHCP hands out (--bootfile; --http's URL), and qemu.sh's
# --forward; or --tap's device, whose network has a DHCP server of its own
# (a test's namespace, tests/servers.sh http_boot_network), which names the
# boot file and its TFTP server for --pxe dhcp. FWCFG: for
# UEFI HTTP boot, EDK2's fw_cfg knobs that turn its PXE off: it tries its
# boot options in turn, PXE over IPv4 and IPv6 first (minutes of timeouts
# with no TFTP server), and with them goes to HTTP at once.
if [ -n "$tap" ]; then
	netdev="tap,id=n0,ifname=$tap,script=no,downscript=no"
	case "$pxe" in ""|dhcp) ;; *) die "--pxe $pxe is QEMU's user-mode TFTP: not with --tap (--pxe dhcp: the DHCP server on its network names the boot file and server)" ;; esac
	[ -z "${forward:-}" ] || die "--forward is QEMU's user-mode network: not with --tap"
else
	[ "$pxe" != dhcp ] || die "--pxe dhcp takes the boot file from a DHCP server on --tap's network: give --tap"
	netdev="user,id=n0${pxe:+,tftp=$pxe,bootfile=$bootfile}${forward:-}"
	case "$http" in
	""|http://*|https://*) netdev="$netdev${http:+,bootfile=$http}" ;;
	dhcp) die "--http dhcp takes the URL from a DHCP server on --tap's network: give --tap" ;;
	*) die "--http $http: expected a URL (http:// or https://) or dhcp" ;;
	esac
fi
fwcfg=""
[ -z "$http" ] || fwcfg="-fw_cfg name=opt/org.tianocore/IPv4PXESupport,string=n -fw_cfg name=opt/org.tianocore/IPv6PXESupport,string=n"
