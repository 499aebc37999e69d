# SPDX-License-Identifier: MIT
# Boot test (issue 47): arm64 UEFI PXE under qemu-system-aarch64's virt
# machine with AAVMF, TCG, as a rack's DHCP server hands it out:
# - a tap device in this test's own network namespace is the rack's
#   network; Debian's dnsmasq serves DHCP on it with the README's lines as
#   they are (read from README.md, the servers' addresses put in): an arm64
#   PXE client (client-arch 11) gets bootaa64.efi from the TFTP server the
#   arm64 line names (10.81.0.2: dnsmasq itself on a second address, with a
#   copy of out/arm64/pxe as its root), and never pxelinux.0;
# - AAVMF with Microsoft's keys, Secure Boot enforced (the stick's is
#   arm64_usb.sh's): its own PXE client (its virtio-net driver) fetches shim, shim
#   Debian's signed network GRUB for arm64 (grubaa64.efi), GRUB reads
#   grub/grub.cfg and loads the signed kernel and the PXE parts over TFTP,
#   as pxe_uefi_grub.sh for x86_64; grub.cfg is out/arm64/pxe's, unchanged;
# - bootbench asks the DHCP server for its config (option 209, vendor class
#   bootbench): the smoke profile on the NVMe disk, saved to a WebDAV share
#   over HTTPS (nginx), read here, the kernel saying Secure Boot was on.
# timeout: 600
# tier: arm64 (make test-arm64, which builds its image)
. tests/bootlib.sh
. tests/servers.sh
QEMU_SH=scripts/qemu-arm64.sh FIRMWARE_BOOT=1	# boot(): AAVMF from the network, no --direct
OUT=$PWD/out/arm64
[ -e "$OUT/pxe/bootaa64.efi" ] || { echo "out/arm64/pxe is missing: run 'make image ARCH=arm64'"; exit 1; }
need_commands qemu-system-aarch64
cp -r "$OUT/pxe" "$T/tftp"
private_network
TFTP_ROOT=$T/tftp http_boot_network || { bad "the rack's network: a tap device, nginx and dnsmasq (DHCP and TFTP) on it"; finish; }
check "the README's lines: arm64 PXE (client-arch 11) to its TFTP server, pxelinux.0 kept from it" sh -c \
	"grep -q 'client-arch,11' '$T/dnsmasq.conf' && grep -q '^dhcp-boot=tag:arm64,tag:!http,bootaa64.efi,10.81.0.2,10.81.0.2 ' '$T/dnsmasq.conf' &&
	 grep -q '^dhcp-boot=.*tag:!arm64,pxelinux.0' '$T/dnsmasq.conf' && grep -q '^dhcp-boot=tag:ipxe,tag:!arm64,boot.ipxe' '$T/dnsmasq.conf'"
mkdir -p "$T/www/racks" "$T/dav/rack1"
cp "$T/ca/ca.crt" "$T/www/ca.crt"
# ${serial} of a machine with no DMI serial: its first NIC's MAC (QEMU's first NIC's)
{ cat <<CONF
run=smoke
scale=$SMOKE_SCALE
targets=/dev/nvme0n1
destroy=/dev/nvme0n1
CONF
rack_save_lines; } > "$T/www/racks/mac-525400123456.conf"
test_disk "$T/nvme.img"
before=$(sum_of "$T/nvme.img")
boot --fw secureboot --pxe dhcp --tap bbtap0 --disk nvme:"$T/nvme.img" || { sed 's/^/    dnsmasq: /' "$T/dnsmasq.log" | tail -n 30; finish; }
# the firmware's DHCP exchanges (--log-dhcp: its vendor class PXEClient:Arch:00011; the booted
# system's own DHCP client, bootbench's, gets the BIOS line's file, which it does not read): the
# file in the reply ("bootfile name: F", or option 67 "bootfile-name  F" where the client asked
# for it) and the TFTP server ("next server: A")
awk '/vendor class: PXEClient:Arch:00011/ { fw[$5] = 1 } { id[NR] = $5; line[NR] = $0 }
	END { for (i = 1; i <= NR; i++) if (id[i] in fw) print line[i] }' "$T/dnsmasq.log" > "$T/firmware.dhcp"
check "dnsmasq gave the arm64 PXE client (client-arch 11) bootaa64.efi and its TFTP server, never pxelinux.0" sh -c \
	"grep -Eq 'bootfile[- ]name:? +bootaa64\.efi' '$T/firmware.dhcp' && grep -q 'next server: 10\.81\.0\.2\$' '$T/firmware.dhcp' &&
	 ! grep -q 'pxelinux' '$T/firmware.dhcp'" || { echo "    the firmware's DHCP:"; sed 's/^/    /' "$T/firmware.dhcp" | tail -n 30; }
check "... and served shim, GRUB and the kernel over TFTP" sh -c \
	"grep -q 'sent .*/bootaa64.efi' '$T/dnsmasq.log' && grep -q 'sent .*/grubaa64.efi' '$T/dnsmasq.log' && grep -q 'sent .*/vmlinuz' '$T/dnsmasq.log'"
check "the kernel came over the network" serial_has 'media: network boot, no boot medium'
check "the guest's boot log names the arm64 kernel" grep -q 'bootbench: .*kernel 6\.[0-9.]*-[0-9]*-arm64' "$T/serial.log"
check "the DHCP server named its config (option 209), fetched" sh -c \
	"grep -aq 'config: the DHCP server names bootbench.conf=http://10.81.0.1:$HTTP_PORT/racks/\${serial}.conf (option 209' '$T/serial.log' &&
	 grep -q 'GET /racks/mac-525400123456.conf ' '$T/nginx/access.log'"
check "the config's run on the NVMe disk" serial_has 'run: smoke on /dev/nvme0n1: exit status 0'
check "the disk was written (consent given)" [ "$(sum_of "$T/nvme.img")" != "$before" ]
run=$(ls "$T/dav/rack1" 2>/dev/null | grep -v '^\.' | head -n 1)
check "the results were saved to the WebDAV share" [ -n "$run" ]
if [ -n "$run" ] && [ -s "$T/dav/rack1/$run/nvme0n1.json" ]; then
	check_smoke_json "$T/dav/rack1/$run/nvme0n1.json"
else
	bad "the share holds nvme0n1.json"
fi
check "the kernel saw Secure Boot enabled (shim, GRUB and the kernel over TFTP, each verified)" \
	grep -q '^secure boot (kernel): enabled' "$T/dav/rack1/$run/system.txt"
finish
