#!/usr/bin/env python3
"""Cold start to first frame, and memory, for tests/bench/run.sh console (run under Xvfb).

    coldstart.py --runs 5 --settle 5 NAME='COMMAND ...' [NAME='COMMAND ...' ...]

Each case is started --runs times, the cases interleaved (run 1 of every case, then run 2, ...)
so that the machine's noise falls on all of them alike, after one warm-up run of each that is
not counted (the first start of a Qt Quick program on a machine fills font and shader caches).
The time is wall time from spawn until the process prints its ready line, ending in
": console ready" (gatehouse prints it at the window's first frameSwapped) or ": ready"
(bench_qml_peer, the same way). "{tmp}" in a command is a new empty directory for each run (a fresh data dir). In the last run of each case
VmRSS and VmHWM are read --settle seconds after the ready line. Every process is stopped with
SIGTERM (SIGKILL after 15 s). Prints one JSON object: {NAME: {"runsMs": [...], "medianMs": m,
"memory": {"rssMiB": r, "hwmMiB": h}}}.
"""
import argparse
import json
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time


def memory(pid):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out["rssMiB" if key == "VmRSS" else "hwmMiB"] = round(int(value.split()[0]) / 1024, 1)
    return out


def run_once(command, settle, timeout=60):
    tmp = tempfile.mkdtemp(prefix="gatehouse-coldstart.")
    argv = [a.replace("{tmp}", tmp) for a in shlex.split(command)]
    ready = threading.Event()
    lines = []
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    ready_at = [None]

    def reader():
        # Keeps draining after the ready line so that the process never blocks on its output.
        for line in proc.stdout:
            if ready_at[0] is None and line.rstrip().endswith((": console ready", ": ready")):
                ready_at[0] = time.monotonic()
                ready.set()
            lines.append(line)

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    try:
        if not ready.wait(timeout):
            sys.stderr.write(f"no ready line from {argv[0]} within {timeout} s:\n{''.join(lines[-30:])}")
            raise SystemExit(1)
        elapsed = (ready_at[0] - start) * 1000
        mem = None
        if settle > 0:
            time.sleep(settle)
            mem = memory(proc.pid)
        return elapsed, mem
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        t.join(5)
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--settle", type=float, default=5)
    parser.add_argument("cases", nargs="+", help="NAME=COMMAND")
    args = parser.parse_args()
    cases = [c.split("=", 1) for c in args.cases]
    results = {name: {"runsMs": []} for name, _ in cases}
    for name, command in cases:
        run_once(command, 0)  # warm-up, not counted
    for i in range(args.runs):
        last = i == args.runs - 1
        for name, command in cases:
            ms, mem = run_once(command, args.settle if last else 0)
            results[name]["runsMs"].append(round(ms, 1))
            if mem:
                results[name]["memory"] = mem
    for r in results.values():
        r["medianMs"] = round(statistics.median(r["runsMs"]), 1)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
