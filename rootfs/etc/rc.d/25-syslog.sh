# bootbench.syslog=udp://HOST[:PORT] or tcp://...: the console (the
# kernel's lines and ours) streamed to a syslog server, started before the
# network so that nothing from the boot's start is missed: bootbench syslog
# keeps the lines until the network and the server take them (boot.sh's
# syslog_start).
syslog_start
