#!/usr/bin/env python3
# camelpy: a resumable fuzzing campaign over the cargo-fuzz targets and the atheris fuzzer.
# Copyright (C) the camelpy developers. Licensed under the GNU GPL, version 3 or later.
"""Runs the fuzz targets in turn, in slices, one process at a time, and keeps a log that survives
restarts.

    python3 rust/fuzz/campaign.py run [--slice-minutes 10] [--goal-hours 1] [--targets fen,tt,...]
    python3 rust/fuzz/campaign.py summary
    touch /work/fuzz-state/STOP          # ends the campaign after the running slice
    touch /work/fuzz-state/PAUSE         # no new slice until the file is removed

Targets: the cargo-fuzz targets ``fen``, ``moves``, ``eval_symmetry``, ``tt`` (``rust/fuzz``) and
``api`` (``tests/fuzz/fuzz_api.py`` under atheris). Each slice runs one target for ``--slice-minutes``
(libFuzzer's ``-max_total_time``) under ``nice``, with its working corpus in ``<state>/<target>/``
(seeded from the committed ``rust/fuzz/corpus/<target>/`` or ``tests/fuzz/corpus/``, which are read
but never written), crash inputs in ``<state>/artifacts/<target>/``, and the tail of libFuzzer's output
in ``<state>/logs/``. Each slice appends one line to ``<state>/log.tsv``: target, start (UTC), seconds,
executions (libFuzzer's ``stat::number_of_executed_units``), crashes (new crash/timeout/oom files), exit
code, the new artefacts, for ``api`` the tally of known defects met, the seconds the slice spent
stopped by a signal (not counted in ``seconds``), a note (a timeout right after such a stop is
flagged as probably false: libFuzzer times inputs by the wall clock), and the CPU seconds the fuzzer
used (user + system). A target's time towards ``--goal-hours`` is its CPU seconds (its wall seconds
for slices logged before that column existed), so a fuzzer that shared its core with other work is
not credited for time it did not run.

Shared machines: before each slice the campaign waits while ``<state>/PAUSE`` exists or while the
1-minute load average (others' work, since the campaign is idle then) is at least ``--max-load``
(default: half the CPUs), and goes on once it has stayed below for about two minutes, so timed
matches and builds of other people are left alone.

Restartable: all state is in ``<state>``; a new ``run`` reads the log and goes on with the target that
has had the least time, skipping targets that reached ``--goal-hours`` (it exits when all have). A lock
file keeps a second campaign from starting. The cargo targets are rebuilt (``cargo +nightly fuzz build
-a``: optimised, with debug assertions and overflow checks, AddressSanitizer) at the start of each
rotation, so a campaign picks up fixes. ``<state>`` is ``$CAMELPY_FUZZ_STATE`` or ``/work/fuzz-state``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import fcntl
import json
import math
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

FUZZ_DIR = Path(__file__).resolve().parent
REPO = FUZZ_DIR.parent.parent
CARGO_TARGETS = ("fen", "moves", "eval_symmetry", "tt")
ALL_TARGETS = (*CARGO_TARGETS, "api")
LOG_COLUMNS = (
    "target", "start_utc", "seconds", "executions", "crashes", "rc",
    "artifacts", "known", "stopped_s", "note", "cpu_s",
)  # fmt: skip
ARTIFACT_PREFIXES = ("crash-", "timeout-", "oom-", "leak-", "slow-unit-")
INPUT_TIMEOUT_S = {"api": 30}
"""libFuzzer ``-timeout`` per input; an input running longer is a finding (a hang)."""
DEFAULT_INPUT_TIMEOUT_S = 60
NICENESS = 15
POLL_S = 1.0
"""How often a running slice is checked (stopped time, overrun)."""
SLICE_GRACE_S = 600
"""A slice still running this long after its -max_total_time is killed."""
QUIET_POLL_S = 30
"""How often a waiting campaign looks at the load again."""
QUIET_CHECKS = 4
"""Checks in a row under --max-load before a waiting campaign goes on (about two minutes)."""


def state_dir() -> Path:
    return Path(os.environ.get("CAMELPY_FUZZ_STATE", "/work/fuzz-state"))


def now_utc() -> str:
    return dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def host_triple() -> str:
    out = subprocess.run(["rustc", "-vV"], capture_output=True, text=True, check=True).stdout
    return next(line.split(": ", 1)[1] for line in out.splitlines() if line.startswith("host: "))


def python_for_atheris(state: Path) -> str:
    env = os.environ.get("CAMELPY_FUZZ_PYTHON")
    if env:
        return env
    venv = state / "venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


# ----- Log ------------------------------------------------------------------------------------------


def read_log(state: Path) -> list[dict[str, str]]:
    path = state / "log.tsv"
    if not path.exists():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        if line.strip():
            fields = line.split("\t")
            rows.append(dict(zip(LOG_COLUMNS, fields + [""] * (len(LOG_COLUMNS) - len(fields)))))
    return rows


def append_log(state: Path, row: dict[str, object]) -> None:
    path = state / "log.tsv"
    header = "\t".join(LOG_COLUMNS)
    if path.exists():
        text = path.read_text(encoding="utf-8")
        first, _, rest = text.partition("\n")
        if first != header:  # a log from an older version: columns were only ever appended
            path.write_text(header + "\n" + rest, encoding="utf-8")
    else:
        path.write_text(header + "\n", encoding="utf-8")
    with path.open("a", encoding="utf-8") as out:
        out.write("\t".join(str(row.get(c, "")) for c in LOG_COLUMNS) + "\n")


def totals(rows: list[dict[str, str]]) -> dict[str, dict[str, int]]:
    """Per target: slices, wall ``seconds``, ``cpu`` seconds (wall where a row has no CPU column; what
    counts towards the goal), executions and crashes."""
    out: dict[str, dict[str, int]] = {}
    for row in rows:
        t = out.setdefault(
            row["target"], {"slices": 0, "seconds": 0, "cpu": 0, "executions": 0, "crashes": 0}
        )
        t["slices"] += 1
        t["seconds"] += int(row["seconds"] or 0)
        t["cpu"] += int(row.get("cpu_s") or row["seconds"] or 0)
        t["executions"] += int(row["executions"] or 0)
        t["crashes"] += int(row["crashes"] or 0)
    return out


def known_totals(rows: list[dict[str, str]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for row in rows:
        for item in filter(None, row.get("known", "").split(",")):
            kind, _, count = item.partition("=")
            out[kind] = out.get(kind, 0) + int(count or 0)
    return out


def summary(state: Path) -> str:
    rows = read_log(state)
    per = totals(rows)
    lines = [
        f"{'target':<14} {'slices':>6} {'seconds':>8} {'cpu_s':>8} {'cpu_h':>6} {'executions':>13} "
        f"{'crashes':>7}"
    ]
    all_ = {"slices": 0, "seconds": 0, "cpu": 0, "executions": 0, "crashes": 0}
    for target in sorted(per, key=lambda t: ALL_TARGETS.index(t) if t in ALL_TARGETS else 99):
        t = per[target]
        for k in all_:
            all_[k] += t[k]
        lines.append(
            f"{target:<14} {t['slices']:>6} {t['seconds']:>8} {t['cpu']:>8} {t['cpu'] / 3600:>6.2f} "
            f"{t['executions']:>13,} {t['crashes']:>7}"
        )
    lines.append(
        f"{'total':<14} {all_['slices']:>6} {all_['seconds']:>8} {all_['cpu']:>8} {all_['cpu'] / 3600:>6.2f} "
        f"{all_['executions']:>13,} {all_['crashes']:>7}"
    )
    known = known_totals(rows)
    if known:
        lines.append(
            "api, known defects met (not counted as crashes): "
            + ", ".join(f"{k}={v}" for k, v in sorted(known.items()))
        )
    for r in rows:
        for name in r["artifacts"].split():
            folder = state / "artifacts" / r["target"]
            where = (
                "open"
                if (folder / name).exists()
                else "triaged"
                if (folder / "triaged" / name).exists()
                else "gone"
            )
            lines.append(f"artefact {where:<7} {r['target']}/{name} (slice at {r['start_utc']})")
    return "\n".join(lines)


# ----- Running ----------------------------------------------------------------------------------------


def build(state: Path) -> bool:
    """Builds the cargo-fuzz targets; returns False (and logs why) if the build fails."""
    cmd = ["cargo", "+nightly", "fuzz", "build", "--fuzz-dir", str(FUZZ_DIR), "-a"]
    result = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    if result.returncode != 0:
        (state / "logs").mkdir(exist_ok=True)
        (state / "logs" / "build-failed.log").write_text(result.stdout + result.stderr, encoding="utf-8")
        print(f"campaign: build failed, see {state / 'logs' / 'build-failed.log'}", file=sys.stderr)
        return False
    return True


def command(target: str, state: Path, seconds: int, triple: str) -> tuple[list[str], dict[str, str]]:
    work = state / target
    work.mkdir(parents=True, exist_ok=True)
    artifacts = state / "artifacts" / target
    artifacts.mkdir(parents=True, exist_ok=True)
    flags = [
        f"-max_total_time={seconds}",
        f"-timeout={INPUT_TIMEOUT_S.get(target, DEFAULT_INPUT_TIMEOUT_S)}",
        "-print_final_stats=1",
        f"-artifact_prefix={artifacts}/",
    ]
    env = dict(os.environ)
    if target == "api":
        env["CAMELPY_FUZZ_KNOWN"] = str(state / "api-known-slice.json")
        seeds = REPO / "tests" / "fuzz" / "corpus"
        script = REPO / "tests" / "fuzz" / "fuzz_api.py"
        return [python_for_atheris(state), str(script), *flags, str(work), str(seeds)], env
    binary = FUZZ_DIR / "target" / triple / "release" / target
    seeds = FUZZ_DIR / "corpus" / target
    return [str(binary), *flags, str(work), str(seeds)], env


def artefact_files(state: Path, target: str) -> set[str]:
    folder = state / "artifacts" / target
    if not folder.exists():
        return set()
    return {p.name for p in folder.iterdir() if p.name.startswith(ARTIFACT_PREFIXES)}


def executions(output: str) -> int:
    match = re.findall(r"stat::number_of_executed_units:\s*(\d+)", output)
    if match:
        return int(match[-1])
    # A crash ends the run before the final stats: take the last progress line ("#12345 NEW ...").
    counts = re.findall(r"^#(\d+)\s", output, flags=re.MULTILINE)
    return int(counts[-1]) if counts else 0


def process_state(pid: int) -> str:
    """The one-letter state of process *pid* from ``/proc`` (``T``: stopped), or ``""`` if unknown."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    return stat.rsplit(")", 1)[1].split()[0]


def run_slice(target: str, state: Path, seconds: int, triple: str) -> dict[str, object]:
    """Runs one slice. Time while the fuzzer (or this script) was stopped by a signal, e.g. someone's
    ``kill -STOP`` to keep a timed match quiet, is not counted in ``seconds`` but in ``stopped_s``."""
    cmd, env = command(target, state, seconds, triple)
    before = artefact_files(state, target)
    known_file = state / "api-known-slice.json"
    if target == "api" and known_file.exists():
        known_file.unlink()
    logs = state / "logs"
    logs.mkdir(exist_ok=True)
    start = now_utc()
    log_path = logs / f"{target}-{start.replace(':', '')}.log"
    began = last = time.monotonic()
    stopped = 0.0
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_before = usage.ru_utime + usage.ru_stime
    with log_path.open("w", encoding="utf-8", errors="replace") as out:
        child = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
        rc = None
        while rc is None:
            time.sleep(POLL_S)
            now = time.monotonic()
            gap, last = now - last, now
            if gap > 5 * POLL_S or process_state(child.pid) in ("T", "t"):
                stopped += gap  # this script was frozen (a long gap), or the fuzzer is stopped
            rc = child.poll()
            if rc is None and now - began - stopped > seconds + SLICE_GRACE_S:
                child.kill()  # libFuzzer ignored -max_total_time
                rc = child.wait()
    elapsed = time.monotonic() - began
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # the fuzzer, reaped above
    cpu = usage.ru_utime + usage.ru_stime - cpu_before
    output = log_path.read_text(encoding="utf-8", errors="replace")
    log_path.write_text("\n".join(output.splitlines()[-300:]) + "\n", encoding="utf-8")
    new = sorted(artefact_files(state, target) - before)
    known = ""
    if target == "api" and known_file.exists():
        try:
            counts = json.loads(known_file.read_text(encoding="utf-8")).get("known", {})
            known = ",".join(f"{k}={v}" for k, v in sorted(counts.items()))
        except (OSError, ValueError):
            known = "unreadable"
    note = ""
    if stopped >= 1 and any(name.startswith("timeout-") for name in new):
        note = (
            "timeout after the slice was stopped: probably false (libFuzzer times inputs by the wall clock)"
        )
    return {
        "target": target,
        "start_utc": start,
        "seconds": int(round(elapsed - stopped)),
        "executions": executions(output),
        "crashes": len(new),
        "rc": rc,
        "artifacts": " ".join(new),
        "known": known,
        "stopped_s": int(round(stopped)),
        "note": note,
        "cpu_s": int(round(cpu)),
    }


def load_average() -> float:
    try:
        return float(Path("/proc/loadavg").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0.0


def wait_until_quiet(state: Path, max_load: float, last_slice_end: float | None) -> bool:
    """Waits while ``<state>/PAUSE`` exists or, if *max_load* > 0, until the 1-minute load average (this
    campaign idle, so it is other people's work) has stayed below *max_load* for ``QUIET_CHECKS``
    checks in a row (a short dip in a running match must not count); False if STOP appears.

    Right after a slice the average still holds this campaign's own fuzzer (one busy process), which
    decays as exp(-t / 60 s): that part is subtracted, from *last_slice_end* (``time.monotonic()``)."""
    said = ""
    quiet = 0
    while True:
        if (state / "STOP").exists():
            return False
        load = load_average()
        if last_slice_end is not None:
            load = max(0.0, load - math.exp(-(time.monotonic() - last_slice_end) / 60))
        if (state / "PAUSE").exists():
            why, quiet = "PAUSE file", 0
        elif max_load > 0 and load >= max_load:
            why, quiet = f"load {load:.2f} >= {max_load:.2f}", 0
        else:
            quiet += 1
            if max_load <= 0 or quiet >= QUIET_CHECKS or (not said and quiet >= 1 and load < max_load / 2):
                if said:
                    print(f"campaign: {now_utc()} going on (load {load:.2f})", file=sys.stderr, flush=True)
                return True
            why = ""
        if why and why != said:
            print(f"campaign: {now_utc()} waiting: {why}", file=sys.stderr, flush=True)
            said = why
        time.sleep(QUIET_POLL_S)


def run(args: argparse.Namespace) -> int:
    state = state_dir()
    state.mkdir(parents=True, exist_ok=True)
    lock = (state / "campaign.lock").open("a+")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print(f"campaign: another campaign holds {state / 'campaign.lock'}", file=sys.stderr)
        return 1
    lock.truncate(0)
    lock.write(f"{os.getpid()}\n")
    lock.flush()
    current = os.nice(0)
    if current < NICENESS:
        os.nice(NICENESS - current)
    targets = [t for t in args.targets.split(",") if t]
    unknown = [t for t in targets if t not in ALL_TARGETS]
    if unknown:
        print(f"campaign: unknown targets {unknown}; known: {', '.join(ALL_TARGETS)}", file=sys.stderr)
        return 2
    triple = host_triple()
    goal_s = int(args.goal_hours * 3600)
    slice_s = int(args.slice_minutes * 60)
    rounds = 0
    last_slice_end: float | None = None
    while True:
        if (state / "STOP").exists():
            print("campaign: STOP file found, ending", file=sys.stderr)
            return 0
        per = totals(read_log(state))
        pending = [t for t in targets if goal_s <= 0 or per.get(t, {}).get("cpu", 0) < goal_s]
        if not pending:
            print("campaign: every target reached its goal", file=sys.stderr)
            print(summary(state))
            return 0
        if args.max_rounds and rounds >= args.max_rounds:
            return 0
        rounds += 1
        # Least-fuzzed first, so a restarted campaign evens out the time.
        pending.sort(key=lambda t: (per.get(t, {}).get("cpu", 0), targets.index(t)))
        if any(t in CARGO_TARGETS for t in pending) and not build(state):
            time.sleep(300)
            continue
        for target in pending:
            if not wait_until_quiet(state, args.max_load, last_slice_end):
                break
            left = goal_s - totals(read_log(state)).get(target, {}).get("cpu", 0)
            seconds = slice_s if goal_s <= 0 else max(60, min(slice_s, left))
            print(f"campaign: {now_utc()} {target} for {seconds} s", file=sys.stderr, flush=True)
            row = run_slice(target, state, seconds, triple)
            last_slice_end = time.monotonic()
            append_log(state, row)
            print(f"campaign: {row}", file=sys.stderr, flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_run = sub.add_parser("run", help="run slices in rotation until every target reached the goal")
    p_run.add_argument("--slice-minutes", type=float, default=10.0)
    p_run.add_argument("--goal-hours", type=float, default=1.0, help="per target; 0 runs forever")
    p_run.add_argument("--targets", default=",".join(ALL_TARGETS))
    p_run.add_argument(
        "--max-rounds", type=int, default=0, help="stop after this many rotations (0: no limit)"
    )
    p_run.add_argument(
        "--max-load",
        type=float,
        default=max(0.5, (os.cpu_count() or 1) / 2),
        help="before each slice, wait while the 1-minute load average is at least this (0: never wait)",
    )
    sub.add_parser("summary", help="total seconds, executions and crashes per target over all slices")
    args = parser.parse_args()
    if args.command == "summary":
        print(summary(state_dir()))
        return 0
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
