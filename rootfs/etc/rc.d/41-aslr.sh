# bootbench.aslr (the command line's, or bootbench.conf's, read by now): off
# sets the kernel's randomize_va_space to 0 before the consoles and the
# unattended run start, so every program started from here on runs at the
# same addresses each time. For machines that emulate their CPU: QEMU's TCG
# reuses a block it translated only at the address it was made for, so with
# randomization every process of a dynamically linked program (dialog,
# mdadm, an installed system's grub-install) is translated anew, about 3000
# blocks for one dialog screen; the test suite's guests boot with it off.
# On (randomized) otherwise, as the image ships.
if [ "${BB_ASLR:-on}" = off ]; then
	if echo 0 > /proc/sys/kernel/randomize_va_space; then
		log "aslr: off (bootbench.aslr=off): programs run at fixed addresses"
	else
		log "aslr: bootbench.aslr=off, but the kernel's randomize_va_space could not be set: it stays on"
	fi
fi
