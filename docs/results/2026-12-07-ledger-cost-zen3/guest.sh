#!/bin/bash
# In the guest: hackbench (make's load) twice in ledger windows, then twice outside.
cd /work/main
hb() { hackbench -g 8 -f 10 -s 100 -l 500 --threads --pipe >/dev/null; }
echo "boot-done" >&2
for i in 1 2; do
	echo "win-start $i" >&2; build/bin/sp-mark start $i; hb; build/bin/sp-mark end $i; echo "win-end $i" >&2
done
for i in 3 4; do
	echo "out-start $i" >&2; hb; echo "out-end $i" >&2
done
