# label: Remote access (ssh: addresses, host key; this boot's log)
# What an operator at a desk needs to reach this machine: whether ssh
# (bootbench.ssh_key) is on, the addresses it listens on, and the host key's
# fingerprint to compare with the one the ssh client shows at the first
# connection. "Follow the log" shows this boot's log as it grows (a running
# burn-in's progress), as `tail -f` does; Ctrl-C comes back.
. /lib/bootbench/menu-lib.sh
while :; do
	# paragraphs are one line each, folded to the box below; list lines are short
	{
		if [ -s /run/bootbench/ssh-host-key.txt ] && [ -s /run/bootbench/ssh/keys.txt ]; then
			echo "ssh is on: port 22, keys only (no passwords). Over ssh, 'bootbench menu' is this menu."
			echo
			echo "Host key (compare it with what ssh shows at the first connection):"
			echo " $(cat /run/bootbench/ssh-host-key.txt)"
			echo
			echo "Addresses:"
			ip -4 -o addr show scope global 2>/dev/null | awk '{ sub(/\/.*/, "", $4); print " ssh root@" $4 "   (" $2 ")" }'
			ip -4 -o addr show scope global 2>/dev/null | grep -q . || echo " none yet (Network sets one)"
			echo
			echo "Keys let in:"
			awk '{ print " " $4, $3 }' /run/bootbench/ssh/keys.txt | head -n 4
		else
			echo "ssh: off. Boot with bootbench.ssh_key=https://HOST/keys (or a file on the stick: bootbench.ssh_key=keys.txt) holding authorized_keys lines; dropbear then listens on port 22 and lets in those keys only."
			grep 'ssh:' /run/bootbench/console.log 2>/dev/null | tail -n 2 | sed 's/^bootbench: \[[^]]*\] / /'
		fi
	} | fold -s -w 70 | head -n 15 > /tmp/menu-remote.txt
	dialog --title " Remote access " --yes-label "Follow the log" --no-label "Back" \
		--yesno "$(cat /tmp/menu-remote.txt)" $(( $(wc -l < /tmp/menu-remote.txt) + 5 )) 76 || exit 0
	clear
	echo "This boot's log as it grows; Ctrl-C comes back to the menu."
	(trap - INT; tail -n 40 -f /run/bootbench/console.log)
done
