# DHCP on every wired link, in the background: the boot does not wait for a
# lease, and PXE-booted racks get their addresses as soon as the switch answers.
# bootbench.ip=LINK=ADDRESS/PREFIX,...: those links get that address instead
# (no DHCP server on a back-to-back cable), even with bootbench.net=off.
# (network_links, /lib/bootbench/boot.sh; 43-network.sh applies what
# bootbench.conf and a fetched config say, read after this.)
ip link set lo up
network_links
[ "${BB_NET:-dhcp}" = dhcp ] || log "network: no DHCP (bootbench.net=off)"
