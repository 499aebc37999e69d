# The wall clock from NTP (bootbench.ntp, else the DHCP lease's server),
# once, before anything that writes a time for others to read: the results
# folder's name, status.json, the Pushgateway's pushes (clock.sh says why
# and how; 15 s at most, never fatal). After 40-media.sh: bootbench.conf
# may name the server.
. /lib/bootbench/clock.sh
clock_set
