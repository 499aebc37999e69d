# Boot parameters from the kernel command line (the whitelist is
# /etc/bootbench/params); bootbench.conf on the stick is read once the stick
# is mounted (40-media.sh).
BB_PARAM_ERRORS=""
params_from_cmdline
