#!/usr/bin/env python3
"""Runs a command (stdout discarded) and prints "WALL_S PEAK_RSS_MIB" of it; exits with its
exit code. Used by the bench/*.sh scripts that record fvprep's time and memory:
    python3 bench/measure_cmd.py [--log FILE] fvprep mesh.cgns --parts 64 -o out.zones.h5
With --log, the command's stdout and stderr go to FILE instead, followed by a line
"rusage: user U s, system S s, minor faults N, voluntary/involuntary switches V/I" of the
command (what a kernel- or lock-bound run shows)."""
import resource
import subprocess
import sys
import time

args = sys.argv[1:]
log = None
if len(args) >= 2 and args[0] == "--log":
    log = open(args[1], "w")
    args = args[2:]
t = time.time()
if log:
    rc = subprocess.call(args, stdout=log, stderr=subprocess.STDOUT)
else:
    rc = subprocess.call(args, stdout=subprocess.DEVNULL)
wall = time.time() - t
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
rss = ru.ru_maxrss / 1024.0
if log:
    log.write(f"rusage: user {ru.ru_utime:.1f} s, system {ru.ru_stime:.1f} s, minor faults "
              f"{ru.ru_minflt}, voluntary/involuntary switches {ru.ru_nvcsw}/{ru.ru_nivcsw}\n")
    log.close()
print(f"{wall:.2f} {rss:.0f}")
sys.exit(rc)
