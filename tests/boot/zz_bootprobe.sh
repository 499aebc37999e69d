. tests/bootlib.sh
need_artifacts
need_commands tmux
stick_with_conf "$T/stick.img"
console_boot 200 60 "--fw bios --usb $T/stick.img --smp 1"
menu_shell
type_line "clear; f=\$(modinfo -n btrfs); ls -laL \$f; time cat \$f > /dev/null; time modprobe btrfs; f=\$(modinfo -n ext4); ls -laL \$f; time cat \$f >/dev/null; echo PROBE=1"
wait_for "PROBE=1" 60
screen | grep -v '^ *$' | tail -20
type_line "clear; time sh -c 'cat /sys/bus/*/devices/*/modalias | sort -u | xargs -r modprobe -q -b -a'; time mdev -s; echo PROBE=2"
wait_for "PROBE=2" 60
screen | grep -v '^ *$' | tail -20
finish
