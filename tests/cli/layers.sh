# SPDX-License-Identifier: MIT
# The layers hold (tools/bootbench/layers.list): no include line and no call
# runs up the list. Includes are read from the sources (each by its folder:
# "job/worker.h"); calls from the objects' undefined symbols (nm) against
# the folder that defines them. The checker is shown to fail on a planted
# upward include and a planted upward call, so it cannot pass by not looking.
. tests/lib.sh
need_commands python3 nm
OBJ=${OBJ:-out/obj}
[ -d "$OBJ/lib" ] || { echo "$OBJ is missing: run 'make'"; exit 1; }
cat > "$T/check.py" <<'PY'
import os, re, subprocess, sys
src, obj = sys.argv[1], sys.argv[2]
order, extra = [], {}
for line in open(os.path.join(src, 'layers.list')):
    words = line.split('#')[0].split()
    if words:
        order.append(words[0])
# the one exception the list writes down: engines use the job layer
extra['engine'] = {'job'}
rank = {d: i for i, d in enumerate(order)}
bad = []
def allowed(user, used):
    return used == user or rank[used] < rank[user] or used in extra.get(user, ())
for d, _, fs in os.walk(src):
    folder = os.path.relpath(d, src)
    for f in fs:
        if not f.endswith(('.c', '.h')):
            continue
        for n, line in enumerate(open(os.path.join(d, f)), 1):
            m = re.match(r'#include "([^"]+)"', line)
            if not m:
                continue
            parts = m.group(1).split('/')
            if len(parts) != 2 or parts[0] not in rank:
                bad.append(f'{folder}/{f}:{n}: "{m.group(1)}" names no folder of layers.list')
            elif folder in rank and not allowed(folder, parts[0]):
                bad.append(f'{folder}/{f}:{n}: includes {m.group(1)}, a layer above {folder}')
defs, uses = {}, []
for d, _, fs in os.walk(obj):
    folder = os.path.relpath(d, obj)
    folder = 'profiles' if folder == 'gen' else folder
    for f in fs:
        # an object whose source is gone (a file moved since the last build) says nothing
        if f.endswith('.o') and (folder == 'profiles' and d.endswith('gen') or
                                 os.path.exists(os.path.join(src, os.path.relpath(d, obj), f[:-2] + '.c'))):
            for line in subprocess.run(['nm', os.path.join(d, f)], capture_output=True, text=True).stdout.splitlines():
                p = line.split()
                if len(p) == 3 and p[1] in 'TDBRC':
                    defs[p[2]] = folder
                elif len(p) == 2 and p[0] == 'U':
                    uses.append((folder, f, p[1]))
for folder, f, sym in uses:
    if sym in defs and folder in rank and not allowed(folder, defs[sym]):
        bad.append(f'{folder}/{f}: calls {sym}, defined in {defs[sym]}, a layer above')
print('\n'.join(bad))
sys.exit(1 if bad else 0)
PY
python3 "$T/check.py" tools/bootbench "$OBJ" > "$T/out" 2>&1
rc=$?
check "no include or call runs up the layers" [ $rc = 0 ]
[ $rc = 0 ] || head -n 20 "$T/out"
check "... every folder of the sources is in layers.list" sh -c "
	for d in \$(cd tools/bootbench && find . -mindepth 1 -type d | sed 's|^\./||'); do
		grep -q \"^\$d \" tools/bootbench/layers.list || { echo \"\$d\"; exit 1; }; done"
# the checker itself: a planted upward include, and a planted upward call
cp -r tools/bootbench "$T/src"
sed -i '0,/#include "lib\/util.h"/s//#include "lib\/util.h"\n#include "cmd\/commands.h"/' "$T/src/lib/util.c"
python3 "$T/check.py" "$T/src" "$OBJ" > "$T/out" 2>&1
check "a planted include of cmd/ in lib/util.c is caught" sh -c "[ $? = 1 ] && grep -q 'lib/util.c:.*cmd/commands.h, a layer above lib' '$T/out'"
cp -r tools/bootbench "$T/src2"
mkdir -p "$T/obj/lib" "$T/obj/cmd"
printf 'int upward(void);\nint planted(void) { return upward(); }\n' > "$T/src2/lib/planted.c"
printf 'int upward(void) { return 1; }\n' > "$T/src2/cmd/upward.c"
cc -c -o "$T/obj/lib/planted.o" "$T/src2/lib/planted.c" && cc -c -o "$T/obj/cmd/upward.o" "$T/src2/cmd/upward.c"
python3 "$T/check.py" "$T/src2" "$T/obj" > "$T/out" 2>&1
check "a planted call from lib/ into cmd/ is caught" sh -c "[ $? = 1 ] && grep -q 'lib/planted.o: calls upward, defined in cmd' '$T/out'"
finish
