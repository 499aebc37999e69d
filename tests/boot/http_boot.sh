# SPDX-License-Identifier: MIT
# Boot test (issue 47): UEFI HTTP boot of the x86_64 ISO (DHCP client-arch
# 16), as arm64_httpboot.sh does arm64's: the README's dnsmasq lines on a
# tap device in this test's own network namespace, nginx serving the ISO
# and the per-host config; OVMF (its PXE turned off) fetches the ISO into
# a RAM disk and boots it: shim, GRUB and the kernel from it, as from a CD.
# bootbench knows from UEFI's BootCurrent that the boot came over HTTP (no
# CD waited for, none called ambiguous), takes its config from DHCP's
# option 209 and runs it unattended: the smoke profile on the NVMe disk,
# its result on the console, then powers off.
# timeout: 300
. tests/bootlib.sh
. tests/servers.sh
FIRMWARE_BOOT=1	# boot(): OVMF from the network, no --direct
need_artifacts
private_network
http_boot_network || { bad "the rack's network: a tap device, nginx and dnsmasq on it"; finish; }
mkdir -p "$T/www/x86_64" "$T/www/racks"
ln -s "$OUT/bootbench.iso" "$T/www/x86_64/bootbench.iso"
# ${serial}: QEMU's SMBIOS serial is empty, so the first NIC's MAC
cat > "$T/www/racks/mac-525400123456.conf" <<CONF
run=smoke
scale=$SMOKE_SCALE
targets=/dev/nvme0n1
destroy=/dev/nvme0n1
save=console
after=poweroff
CONF
test_disk "$T/nvme.img"
before=$(sum_of "$T/nvme.img")
boot --fw uefi --http dhcp --tap bbtap0 --disk nvme:"$T/nvme.img" || { sed 's/^/    dnsmasq: /' "$T/dnsmasq.log" | tail -n 30; finish; }
check "dnsmasq gave the firmware the ISO's URL (client-arch 16)" grep -q "x86_64/bootbench.iso" "$T/dnsmasq.log"
check "OVMF fetched the ISO over HTTP and booted it" sh -c \
	"grep -q 'GET /x86_64/bootbench.iso ' '$T/nginx/access.log' && grep -aq 'bootbench: .*kernel 6\.[0-9.]*-[0-9]*-amd64' '$T/serial.log'"
check "bootbench knew the firmware booted over HTTP (UEFI's BootCurrent): a network boot, nothing ambiguous" sh -c \
	"grep -aq 'boot: the firmware booted over UEFI HTTP boot (52:54:00:12:34:56)' '$T/serial.log' &&
	 grep -aq 'media: network boot (UEFI HTTP boot), no boot medium' '$T/serial.log' && ! grep -aq 'ambiguous' '$T/serial.log'"
check "the DHCP server named its config (option 209, vendor class bootbench) on the NIC that booted, fetched" sh -c \
	"grep -aq 'config: the DHCP server names bootbench.conf=http://10.81.0.1:$HTTP_PORT/racks/\${serial}.conf (option 209, on eth0)' '$T/serial.log' &&
	 grep -q 'GET /racks/mac-525400123456.conf ' '$T/nginx/access.log'"
check "the smoke profile ran on the NVMe disk, exit 0" serial_has 'run: smoke on /dev/nvme0n1: exit status 0'
check_console_results
finish
