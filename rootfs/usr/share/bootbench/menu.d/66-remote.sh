# label: Remote access (ssh: addresses, host key; this boot's log)
# What an operator at a desk needs to reach this machine: whether ssh
# (bootbench.ssh_key) is on, the addresses it listens on, and the host key's
# fingerprint to compare with the one the ssh client shows at the first
# connection. "Follow the log" shows this boot's log as it grows (a running
# burn-in's progress), as `tail -f` does; Ctrl-C comes back.
. /lib/bootbench/menu-lib.sh
while :; do
	{
		if [ -s /run/bootbench/ssh-host-key.txt ] && [ -s /run/bootbench/ssh/keys.txt ]; then
			echo "ssh: on, port 22, keys only (no passwords)."
			echo
			echo "Host key (compare it with what ssh shows at the first connection):"
			echo "  $(cat /run/bootbench/ssh-host-key.txt)"
			echo
			echo "Addresses:"
			ip -4 -o addr show scope global 2>/dev/null | awk '{ sub(/\/.*/, "", $4); print "  ssh root@" $4 "   (" $2 ")" }'
			ip -4 -o addr show scope global 2>/dev/null | grep -q . || echo "  none yet (Network sets one)"
			echo
			echo "Keys let in:"
			awk '{ print "  " $1, $3, $4 }' /run/bootbench/ssh/keys.txt
			echo
			echo "Over ssh, 'bootbench menu' is this menu."
		else
			echo "ssh: off. Boot with bootbench.ssh_key=https://HOST/keys (or a file on the"
			echo "stick, e.g. bootbench.ssh_key=keys.txt): authorized_keys lines; dropbear then"
			echo "listens on port 22 and lets in those keys only."
			grep 'ssh:' /run/bootbench/console.log 2>/dev/null | tail -n 3 | sed 's/^/  /'
		fi
	} > /tmp/menu-remote.txt
	choice=$(dialog --stdout --title " Remote access " --menu "$(fold -s -w 72 /tmp/menu-remote.txt | head -n 14)" 22 78 2 \
		log "Follow this boot's log (Ctrl-C comes back)" \
		back "Back to the menu") || exit 0
	case "$choice" in
	log) clear; echo "This boot's log; Ctrl-C comes back to the menu."; (trap - INT; tail -n 40 -f /run/bootbench/console.log) ;;
	*) exit 0 ;;
	esac
done
