# label: Burn-in (write, read back, verify)
# The burnin profile straight away: disks, consent, run, PASS or FAIL.
PROFILE=burnin sh /usr/share/bootbench/menu.d/30-profile.sh
