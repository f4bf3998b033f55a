"""Where the test suite's processor time goes, machine-wide (Linux only).

``/usr/bin/time python -m pytest`` counts only the processes pytest waited for: a browser's
renderers, a kernel of the book's build and other processes that their parents did not
reap are missing from its figure. This runs the suite (or what the arguments select) and,
every half second, reads every process's processor time from ``/proc``; at the end it
prints the wall time, the machine's busy and idle processor time over the run (from
``/proc/stat``, so other work on the machine counts too: run it on a quiet machine), and the
processor time by kind of process, largest first. A process that lives less than half a
second between two readings is missed by the table, not by the busy time.

    python benchmarks/suite_cpu.py [pytest arguments ...]

pytest's own output is shown as it runs.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def machine() -> tuple[float, float]:
    """The machine's busy and idle processor seconds since it started."""
    fields = Path("/proc/stat").read_text(encoding="ascii").splitlines()[0].split()[1:]
    user, nice, system, idle, iowait, irq, softirq = (int(value) for value in fields[:7])
    return (user + nice + system + irq + softirq) / TICK, (idle + iowait) / TICK


def kind(name: str, command: list[str]) -> str:
    """What a process is, for the table: its name, and for Python what it runs."""
    if not name.startswith("python") or len(command) < 2:
        return name
    if command[1] == "-c":
        return "python -c " + (command[2].split(";")[0] if len(command) > 2 else "")[:40]
    return "python " + " ".join(Path(part).name if "/" in part else part
                                for part in command[1:3])


def read_processes(seen: dict[tuple[str, str], tuple[str, float]]) -> None:
    """Each process's kind and processor time so far, by process ID and start time."""
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8", errors="replace")
            raw = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:  # the process ended meanwhile
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        rest = stat[stat.rindex(")") + 2:].split()
        seconds = (int(rest[11]) + int(rest[12])) / TICK
        command = raw.decode(errors="replace").split("\0")
        seen[(pid, rest[19])] = (kind(name, command), seconds)


def main(argv: list[str]) -> int:
    seen: dict[tuple[str, str], tuple[str, float]] = {}
    read_processes(seen)
    before = dict(seen)
    busy, idle = machine()
    start = time.perf_counter()
    suite = subprocess.Popen([sys.executable, "-m", "pytest", *argv])
    while suite.poll() is None:
        read_processes(seen)
        time.sleep(0.5)
    wall = time.perf_counter() - start
    busy_after, idle_after = machine()
    by_kind: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    for key, (what, seconds) in seen.items():
        by_kind[what] += seconds - before.get(key, (what, 0.0))[1]
        count[what] += key not in before
    print(f"\nwall {wall:.0f} s; machine busy {busy_after - busy:.0f} s, "
          f"idle {idle_after - idle:.0f} s of processor time")
    print("processor time by kind of process (processes started during the run):")
    for what, seconds in sorted(by_kind.items(), key=lambda item: -item[1])[:15]:
        if seconds >= 0.5:
            print(f"{seconds:8.1f} s  {count[what]:4d}  {what}")
    return suite.returncode


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
