# label: System information
# CPU, memory, kernel, DMI, firmware and Secure Boot, NICs (bootbench sysinfo).
. /lib/bootbench/menu-lib.sh
show "System information" bootbench sysinfo
