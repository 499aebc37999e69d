# The BMC's drivers, before anything takes the inventory: ipmi_si (KCS,
# SMIC, BT) or ipmi_ssif (SMBus) for the interface, ipmi_devintf for
# /dev/ipmi0, which the inventory and the burn-in's bmc component ask
# through ipmitool. The coldplug (20-modules.sh) may load ipmi_si by its
# ACPI alias, never ipmi_devintf: without it every inventory said "no BMC".
# Loaded only where the firmware describes a BMC, where ipmi_si itself looks
# for one (SMBIOS type 38 IPMI Device Information, the ACPI IPI0001
# device, a PCI IPMI interface, class 0c07): no probing of machines without
# one. The drivers are in the burnin pack: without it, or with no BMC
# after all, the modprobe fails quietly and the inventory says "no BMC".
bmc_described() {
	[ -e "$ROOT/sys/firmware/dmi/entries/38-0" ] && return 0
	for d in "$ROOT"/sys/bus/acpi/devices/IPI0001:*; do
		[ -e "$d" ] && return 0
	done
	grep -qs '^0x0c07' "$ROOT"/sys/bus/pci/devices/*/class
}
if bmc_described; then
	modprobe -qa ipmi_si ipmi_ssif ipmi_devintf 2>/dev/null
	if [ -e "$ROOT/dev/ipmi0" ] || [ -e "$ROOT/dev/ipmi/0" ]; then
		log "bmc: /dev/ipmi0 (ipmi_si, ipmi_devintf)"
	else
		log "bmc: the firmware describes one, but no IPMI device after loading its drivers (is the burnin pack loaded?)"
	fi
fi
true
