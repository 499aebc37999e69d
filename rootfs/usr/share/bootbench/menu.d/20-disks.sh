# label: Disks and health
# Every disk with what is on it, who uses it and its health (bootbench disks).
. /lib/bootbench/menu-lib.sh
show "Disks and health" bootbench disks
