# SPDX-License-Identifier: MIT
# bad_input.sh - every kind of bad input: exit status 2, one line on stderr
# naming what is wrong, nothing on stdout, and nothing written anywhere
# (no new file in the scratch directory, the loop device's checksum unchanged).
. tests/lib.sh
cd "$T" || exit 1
loopdev dev "$T/disk.img" 16M
dd if=/dev/urandom of="$dev" bs=1M count=16 status=none oflag=direct
printf 'existing' > small.dat
before_sum=$(sha256sum "$dev" | cut -d' ' -f1)
cat > bad.fio <<'JOB'
[a]
rw=read
size=1m
frobnicate=1
JOB
state() { find . -type f | sort | xargs sha256sum; }
before_ls=$(state)

# name | arguments | what stderr must say
while IFS='|' read -r name args want; do
	[ -z "$name" ] && continue
	eval "set -- $args"
	refuses "$name" "$want" "$BB" run "$@"
done <<ROWS
unknown option|--name=a --filename=x.dat --size=1m --frobnicate=1|unsupported option 'frobnicate' (command line)
unknown in file|bad.fio|unsupported option 'frobnicate' (bad.fio line 4)
bad size|--name=a --filename=x.dat --size=12q|invalid value '12q' for option 'size'
bad rw|--name=a --filename=x.dat --size=1m --rw=sideways|invalid value 'sideways' for option 'rw'
bad iodepth|--name=a --filename=x.dat --size=1m --iodepth=0|option 'iodepth'
iodepth above io_uring's ring (A.12)|--name=a --filename=x.dat --size=1m --iodepth=40000|expected a whole number from 1 to 32768
bssplit entry of 4g (A.12: a zero-byte I/O)|--name=a --filename=x.dat --size=1m --bssplit=4g|option 'bssplit'
bad engine|--name=a --filename=x.dat --size=1m --ioengine=frob|option 'ioengine'
an engine that needs a network|--name=a --filename=x.dat --size=1m --ioengine=rdma|ioengine=rdma: a network engine
io_uring_cmd on a file|--name=a --filename=x.dat --size=1m --ioengine=io_uring_cmd|ioengine=io_uring_cmd needs an NVMe generic char device
exec refused, saying why|--name=a --filename=x.dat --size=1m --ioengine=exec|ioengine=exec: it runs programs
a zone mode neither has|--name=a --filename=x.dat --size=1m --zonemode=spiral|invalid value 'spiral' for option 'zonemode'
bad bsrange|--name=a --filename=x.dat --size=1m --bsrange=64k-4k|option 'bsrange'
bsrange with bs|--name=a --filename=x.dat --size=1m --bs=8k --bsrange=4k-16k|bsrange and bs both given
bad buffer_pattern|--name=a --filename=x.dat --size=1m --rw=write --buffer_pattern=0xzz|option 'buffer_pattern'
bad kb_base|--name=a --filename=x.dat --size=1m --kb_base=1010|kb_base is 1000 or 1024
negative random modifier|--name=a --filename=x.dat --size=1m --rw=randread:-4k|takes a count of I/Os
zoned not summing to 100|--name=a --filename=x.dat --size=1m --rw=randread --random_distribution=zoned:50/50:40/50|option 'random_distribution'
bad cpus_allowed|--name=a --filename=x.dat --size=1m --cpus_allowed=3-1|option 'cpus_allowed'
nrfiles with filename|--name=a --filename=x.dat --size=1m --nrfiles=4|nrfiles is for files made in directory
no jobs||no jobs
unknown command line word|--name=a --size=1m nosuchjob.fio|cannot read job file nosuchjob.fio
new file without size|--name=a --filename=new.dat|size is needed to create new.dat
missing directory|--name=a --filename=nodir/x.dat --size=1m|directory nodir does not exist
directory as file|--name=a --filename=. --size=1m|is a directory
char device|--name=a --filename=/dev/null --size=1m|neither a regular file nor a block device
read past end of file|--name=a --filename=small.dat --size=1m|small.dat is 8 bytes
write without consent|--name=a --filename=$dev --rw=write --size=1m|refusing to write $dev
trim without consent|--name=a --filename=$dev --rw=trim --size=1m|name it in --destroy=$dev
consent for another device|--name=a --filename=$dev --rw=write --destroy=/dev/null|not a block device
beyond end of device|--name=a --filename=$dev --rw=read --offset=15m --size=2m|beyond the end of $dev
unaligned direct bs|--name=a --filename=$dev --direct=1 --bs=1000 --size=1m|bs 1000 is not a multiple of the logical block size
unaligned direct offset|--name=a --filename=$dev --direct=1 --offset=100 --size=1m|offset 100 is not a multiple
size below bs|--name=a --filename=x.dat --size=1k --bs=4k|smaller than the block size
time_based without runtime|--name=a --filename=x.dat --size=1m --time_based|time_based needs a runtime
bad percentile|--name=a --filename=x.dat --size=1m --percentile_list=50:200|percentile_list
bad format|--name=a --filename=x.dat --size=1m --output-format=terse|output-format
hipri without direct|--name=a --filename=x.dat --size=1m --hipri=1|hipri
unknown subcommand option spelling|--name=a --filename=x.dat --size=1m --iodepth|invalid value '' for option 'iodepth'
ROWS

"$BB" frobnicate >/dev/null 2>&1; check "unknown command exits 2" [ $? = 2 ]
check "no file was created or changed" [ "$(state)" = "$before_ls" ]
check "the device is unchanged" [ "$(sha256sum "$dev" | cut -d' ' -f1)" = "$before_sum" ]
finish
