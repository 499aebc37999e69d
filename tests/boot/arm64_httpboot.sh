# SPDX-License-Identifier: MIT
# Boot test (issue 47): UEFI HTTP boot of the arm64 ISO, as a rack's DHCP
# server hands it to an arm64 server (DHCP client-arch 19), unattended:
# - a tap device in this test's own network namespace is the rack's
#   network; Debian's dnsmasq serves DHCP on it with the README's UEFI HTTP
#   boot lines (read from README.md, the web server's address put in);
#   nginx serves the ISO and the per-host config over HTTP, and a WebDAV
#   share over HTTPS for the results;
# - AAVMF (its PXE turned off, so that it goes to HTTP at once) gets the
#   ISO's URL from dnsmasq, fetches the ISO into a RAM disk and boots it:
#   Debian's shim, GRUB and kernel from it, as from a CD;
# - Linux does not see the RAM disk: bootbench knows from UEFI's
#   BootCurrent that the firmware booted over HTTP (not a CD to wait for
#   and call ambiguous), asks the DHCP server for its config (its vendor
#   class, option 209) and fetches it: the burn-in of cpu, memory and the
#   NVMe disk, short, saved to the WebDAV share with inventory.json, read
#   here: each component PASS, the inventory naming the virt machine's
#   CPUs, memory and disk.
# timeout: 600
# tier: arm64 (make test-arm64, which builds its image)
. tests/bootlib.sh
. tests/servers.sh
QEMU_SH=scripts/qemu-arm64.sh FIRMWARE_BOOT=1	# boot(): AAVMF from the network, no --direct
OUT=$PWD/out/arm64
[ -e "$OUT/bootbench.iso" ] || { echo "out/arm64/bootbench.iso is missing: run 'make image ARCH=arm64'"; exit 1; }
need_commands qemu-system-aarch64
private_network
http_boot_network || { bad "the rack's network: a tap device, nginx and dnsmasq on it"; finish; }
mkdir -p "$T/www/arm64" "$T/www/racks" "$T/dav/rack1"
ln -s "$OUT/bootbench.iso" "$T/www/arm64/bootbench.iso"
cp "$T/ca/ca.crt" "$T/www/ca.crt"
# ${serial} of a machine with no DMI serial: its first NIC's MAC (QEMU's first NIC's). The
# burn-in short and the loads' overlap bar low (10 s under TCG: every load at once 8 s of 16 s
# sampled, 0.47): what this checks is the boot and where its results go; the bars' verdicts
# are burnin_together.sh's, the limits a VM needs burnin_peer.sh's
{ cat <<CONF
run=burnin
burnin=cpu,memory,disks
duration=10s
targets=/dev/nvme0n1
destroy=/dev/nvme0n1
burnin_cpu_need_sensors=0
burnin_cpu_freq_min=0
burnin_memory_need_edac=0
burnin_memory_fraction=0.1
burnin_disks_need_selftest=0
burnin_together_overlap_min=0.15
CONF
rack_save_lines; } > "$T/www/racks/mac-525400123456.conf"
check "the README's HTTP boot lines for dnsmasq: both client-arches, the config's option" sh -c \
	"grep -q 'client-arch,19' '$T/dnsmasq.conf' && grep -q 'client-arch,16' '$T/dnsmasq.conf' && grep -q ',209,' '$T/dnsmasq.conf'"
# 32 MiB: a minimal pass of the disk fits the 10 s share at the 7.3 MiB/s
# TCG gave it beside two other arm64 guests (64 MiB needed 13 s)
truncate -s 32M "$T/nvme.img"
boot --http dhcp --tap bbtap0 --disk nvme:"$T/nvme.img" || { sed 's/^/    dnsmasq: /' "$T/dnsmasq.log" | tail -n 30; finish; }
check "dnsmasq gave the firmware the ISO's URL (client-arch 19)" \
	grep -q "arm64/bootbench.iso" "$T/dnsmasq.log"
check "AAVMF fetched the ISO over HTTP" grep -q 'GET /arm64/bootbench.iso ' "$T/nginx/access.log"
check "... and booted it: GRUB's arm64 build, the arm64 kernel" sh -c \
	"grep -aq \"Booting \\\`bootbench'\" '$T/serial.log' && grep -aq 'bootbench: .*kernel 6\.[0-9.]*-[0-9]*-arm64' '$T/serial.log'"
check "bootbench knew the firmware booted over HTTP (UEFI's BootCurrent)" \
	serial_has 'boot: the firmware booted over UEFI HTTP boot (52:54:00:12:34:56)'
check "... a network boot: no CD waited for, none called ambiguous" sh -c \
	"grep -aq 'media: network boot (UEFI HTTP boot), no boot medium' '$T/serial.log' && ! grep -aq 'ambiguous' '$T/serial.log'"
check "the DHCP server named its config (option 209, vendor class bootbench) on the NIC that booted, fetched" sh -c \
	"grep -aq 'config: the DHCP server names bootbench.conf=http://10.81.0.1:$HTTP_PORT/racks/\${serial}.conf (option 209, on eth0)' '$T/serial.log' &&
	 grep -q 'GET /racks/mac-525400123456.conf ' '$T/nginx/access.log'"
run=$(ls "$T/dav/rack1" 2>/dev/null | grep -v '^\.' | head -n 1)
check "the results were saved to the WebDAV share" [ -n "$run" ]
R=$T/dav/rack1/$run
check "burnin.json: cpu, memory and the NVMe disk each PASS, and all at once, the machine PASS" json "$R/burnin.json" \
	"d['verdict'] == 'PASS' and d['phases'] == ['together'] and
	 sorted(c['name'] for c in d['components'] if c['verdict'] == 'PASS') == ['cpu', 'disks', 'memory', 'together']" ||
	json "$R/burnin.json" "print([(c['name'], c['verdict']) for c in d['components']], d['verdict'], d['phases'])"
check "... the disk burned in is the NVMe one" json "$R/burnin.json" \
	"[x['device'].rsplit('/', 1)[-1] for c in d['components'] if c['name'] == 'disks' for x in c['devices']] == ['nvme0n1']"
check "inventory.json names the virt machine's CPUs (Cortex-A57), its memory and the NVMe disk" json "$R/inventory.json" \
	"'Cortex-A57' in d['cpus']['model'] and d['cpus']['threads'] >= 1 and d['memory']['total_bytes'] > 512 << 20 and
	 any(x['serial'] == 'BBNVME1' for x in d['disks'])"
check "... and the SMBIOS tables the firmware handed the kernel (/sys/firmware/dmi): QEMU's, AAVMF's version" json "$R/inventory.json" \
	"d['system']['vendor'] == 'QEMU' and d['bios']['vendor'] != '' and d['smbios_version'] != ''" ||
	json "$R/inventory.json" "print(d.get('system'), d.get('bios'), d.get('smbios_version'))"
check "the system description names the arm64 kernel and the HTTP boot" sh -c \
	"grep -q '^Kernel: *6\.[0-9.]*-[0-9]*-arm64 ' '$R/system.txt' && grep -q '^Booted: .*(UEFI HTTP boot)' '$R/system.txt'"
finish
