#!/usr/bin/env python3
"""Runs a command and prints its wall time and CPU time (user + system, every thread of the process
and its children) in seconds: "WALL CPU". CPU time is the figure that holds on a busy machine, where
wall time depends on what else runs. Usage: timed.py COMMAND [ARG...]  (the command's output is
discarded; its exit status is this script's)."""
import os, subprocess, sys, time

start = time.perf_counter()
process = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(process.pid, 0)
wall = time.perf_counter() - start
print(f"{wall:.4f} {usage.ru_utime + usage.ru_stime:.4f}")
sys.exit(os.waitstatus_to_exitcode(status))
