# Rebuild the initramfs: run inside the installed system by bootbench
# chroot --repair=initramfs, with the tool the system uses: Debian's
# update-initramfs, dracut (Fedora, SUSE), or mkinitcpio (Arch). The
# chroot's /proc/cmdline is the system's own, so nothing of the
# appliance's command line gets in.
run() {
	echo "repair: running $*"
	"$@"
	rc=$?
	echo "repair: $*: exit status $rc"
	return $rc
}
if command -v update-initramfs > /dev/null; then
	run update-initramfs -u -k all || exit 1
elif command -v dracut > /dev/null; then
	run dracut --regenerate-all --force || exit 1
elif command -v mkinitcpio > /dev/null; then
	run mkinitcpio -P || exit 1
else
	echo "repair: no initramfs tool (update-initramfs, dracut, mkinitcpio) in this system"
	exit 1
fi
echo "repair: the initramfs is rebuilt"
