# SPDX-License-Identifier: MIT
# The menu's checks and words (rootfs/lib/bootbench/menu-lib.sh) under the
# image's busybox sh (its awk, cut, fold) when built, as the menu runs them:
#   - ipv4 and host_ok, the static address a person types (Network): only a
#     host's address on its network, with a gateway on it, gets past them,
#     since the link is flushed right after (0.0.0.0/0 then adds nothing, a
#     gateway off the network fails after the flush) (issue 48);
#   - titled_on: a box's title with its disks, counted past the box's width,
#     never longer than the box;
#   - erase_table: 18 disks a row each; 24: 17 rows and a line for the rest
#     that counts them by their verdicts (erased, NOT erased: a disk not
#     erased ends too) and those not yet, its errors in full past 2^31.
. tests/lib.sh
SH=sh
[ -x out/busybox/busybox ] && SH="out/busybox/busybox sh"
lib() { $SH -c '. rootfs/lib/bootbench/menu-lib.sh; "$@"' - "$@"; }
# the Network entry's two checks, in the shell that sourced them
static_ok='. rootfs/lib/bootbench/menu-lib.sh; command -v host_ok > /dev/null || exit 3
	ipv4 "$1" prefix && { [ -z "$2" ] || ipv4 "$2"; } && host_ok "$1" "$2"'
takes() { # DESCRIPTION ADDR [GATEWAY]: ipv4 and host_ok let it through
	check "takes $1" $SH -c "$static_ok" - "$2" "${3:-}"
}
refuses() { # DESCRIPTION ADDR [GATEWAY]: one of them stops it (exit 1, not a missing check's 3)
	$SH -c "$static_ok" - "$2" "${3:-}"
	check "refuses $1" [ $? = 1 ]
}
takes "an address with its gateway" 192.0.2.10/24 192.0.2.1
takes "an address with no gateway" 10.0.0.1/32
takes "a /31 and its peer" 10.0.0.1/31 10.0.0.0
takes "a /8 near its end" 10.255.255.254/8 10.0.0.1
refuses "an octet over 255" 192.0.2.300/24
refuses "no prefix" 192.0.2.10
refuses "leading zeros (octal to some)" 010.0.0.1/24
refuses "blanks around it" " 192.0.2.10/24"
refuses "0.0.0.0/0 (ip adds nothing)" 0.0.0.0/0
refuses "0.x" 0.1.2.3/24
refuses "a gateway off the network (fails after the flush)" 10.0.0.1/24 10.9.9.9
refuses "the gateway the address itself" 10.0.0.1/24 10.0.0.1
refuses "the network's own address" 192.0.2.0/24
refuses "its broadcast" 192.0.2.255/24
refuses "loopback" 127.0.0.2/8
refuses "multicast" 224.0.0.1/24
refuses "a prefix under 8" 10.0.0.1/7
refuses "a gateway that is a broadcast" 192.0.2.10/24 192.0.2.255
# titled_on WIDTH LEAD DISK...
t2=$(lib titled_on 72 quick /dev/vda /dev/vdb)
check "a title with its disks: ' quick on /dev/vda /dev/vdb '" [ "$t2" = " quick on /dev/vda /dev/vdb " ]
t24=$(lib titled_on 72 quick $(i=0; while [ $i -lt 24 ]; do printf '/dev/nvme%dn1 ' $i; i=$((i + 1)); done))
check "24 disks: counted, first and last named" [ "$t24" = " quick on 24 disks: /dev/nvme0n1 ... /dev/nvme23n1 " ]
long=/dev/mapper/luks-1b2c3d4e-0000-4000-8000-000000000001
t1=$(lib titled_on 72 "Compare RAID levels" $long $long)
echo "    '$t1'"
check "two long names: cut to the box's 68, marked ..." sh -c "[ ${#t1} -le 68 ] && [ '${t1%... }' != '$t1' ]"
# erase_table PROGRESS TABLE
rows() { # N [LINE-FOR-DISK-N...]: progress lines for N disks, erasing, none with errors
	i=1; while [ $i -le $1 ]; do echo "erase sd$i erasing 1 1 50.0 100.0 30 0"; i=$((i + 1)); done
}
rows 18 > "$T/p18"
lib erase_table "$T/p18" "$T/t18"
check "18 disks: a header and a row each" sh -c "[ \$(wc -l < '$T/t18') = 19 ] && ! grep -q more '$T/t18'"
{ rows 19; echo "erase sd20 exceptions 1 1 100.0 0.0 0 0"; echo "erase sd21 not-erased 1 1 100.0 0.0 0 3000000000"
  echo "erase sd22 erased 1 1 100.0 0.0 0 0"; echo "erase sd23 erased 1 1 100.0 0.0 0 0"
  echo "erase sd24 verifying 1 1 10.0 50.0 60 0"; } > "$T/p24"
lib erase_table "$T/p24" "$T/t24"
sed 's/^/    /' "$T/t24" | tail -n 3
check "24 disks: 17 rows and a line for the other 7 by their verdicts: erased, with exceptions, NOT erased, not yet, errors in full" sh -c \
	"[ \$(wc -l < '$T/t24') = 19 ] && tail -n 1 '$T/t24' | grep -qx 'and 7 more: 2 erased, 1 with exceptions, 1 NOT erased, 3 not yet; 3000000000 errors'"
finish
