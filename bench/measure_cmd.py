#!/usr/bin/env python3
"""Runs a command (stdout discarded) and prints "WALL_S PEAK_RSS_MIB" of it; exits with its
exit code. Used by the bench/*.sh scripts that record fvprep's time and memory:
    python3 bench/measure_cmd.py fvprep mesh.cgns --parts 64 -o out.zones.h5"""
import resource
import subprocess
import sys
import time

t = time.time()
rc = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL)
wall = time.time() - t
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
print(f"{wall:.2f} {rss:.0f}")
sys.exit(rc)
