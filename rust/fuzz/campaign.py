#!/usr/bin/env python3
# camelpy: a resumable fuzzing campaign over the cargo-fuzz targets and the atheris fuzzer.
# Copyright (C) the camelpy developers. Licensed under the GNU GPL, version 3 or later.
"""Runs the fuzz targets in turn, in slices, one process at a time, and keeps a log that survives
restarts.

    python3 rust/fuzz/campaign.py run [--slice-minutes 10] [--goal-hours 1] [--targets fen,tt,...]
    python3 rust/fuzz/campaign.py summary
    touch /work/fuzz-state/STOP          # ends the campaign after the running slice

Targets: the cargo-fuzz targets ``fen``, ``moves``, ``eval_symmetry``, ``tt`` (``rust/fuzz``) and
``api`` (``tests/fuzz/fuzz_api.py`` under atheris). Each slice runs one target for ``--slice-minutes``
(libFuzzer's ``-max_total_time``) under ``nice``, with its working corpus in ``<state>/<target>/``
(seeded from the committed ``rust/fuzz/corpus/<target>/`` or ``tests/fuzz/corpus/``, which are read
but never written), crash inputs in ``<state>/artifacts/<target>/``, and the tail of libFuzzer's output
in ``<state>/logs/``. Each slice appends one line to ``<state>/log.tsv``: target, start (UTC), seconds,
executions (libFuzzer's ``stat::number_of_executed_units``), crashes (new crash/timeout/oom files), exit
code, the new artefacts, and for ``api`` the tally of known defects met.

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
import os
import re
import subprocess
import sys
import time
from pathlib import Path

FUZZ_DIR = Path(__file__).resolve().parent
REPO = FUZZ_DIR.parent.parent
CARGO_TARGETS = ("fen", "moves", "eval_symmetry", "tt")
ALL_TARGETS = (*CARGO_TARGETS, "api")
LOG_COLUMNS = ("target", "start_utc", "seconds", "executions", "crashes", "rc", "artifacts", "known")
ARTIFACT_PREFIXES = ("crash-", "timeout-", "oom-", "leak-", "slow-unit-")
INPUT_TIMEOUT_S = {"api": 30}
"""libFuzzer ``-timeout`` per input; an input running longer is a finding (a hang)."""
DEFAULT_INPUT_TIMEOUT_S = 60
NICENESS = 15


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
    new = not path.exists()
    with path.open("a", encoding="utf-8") as out:
        if new:
            out.write("\t".join(LOG_COLUMNS) + "\n")
        out.write("\t".join(str(row.get(c, "")) for c in LOG_COLUMNS) + "\n")


def totals(rows: list[dict[str, str]]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for row in rows:
        t = out.setdefault(row["target"], {"slices": 0, "seconds": 0, "executions": 0, "crashes": 0})
        t["slices"] += 1
        t["seconds"] += int(row["seconds"] or 0)
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
    lines = [f"{'target':<14} {'slices':>6} {'seconds':>8} {'hours':>6} {'executions':>13} {'crashes':>7}"]
    all_ = {"slices": 0, "seconds": 0, "executions": 0, "crashes": 0}
    for target in sorted(per, key=lambda t: ALL_TARGETS.index(t) if t in ALL_TARGETS else 99):
        t = per[target]
        for k in all_:
            all_[k] += t[k]
        lines.append(
            f"{target:<14} {t['slices']:>6} {t['seconds']:>8} {t['seconds'] / 3600:>6.2f} "
            f"{t['executions']:>13,} {t['crashes']:>7}"
        )
    lines.append(
        f"{'total':<14} {all_['slices']:>6} {all_['seconds']:>8} {all_['seconds'] / 3600:>6.2f} "
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


def run_slice(target: str, state: Path, seconds: int, triple: str) -> dict[str, object]:
    cmd, env = command(target, state, seconds, triple)
    before = artefact_files(state, target)
    known_file = state / "api-known-slice.json"
    if target == "api" and known_file.exists():
        known_file.unlink()
    start = now_utc()
    began = time.monotonic()
    try:
        result = subprocess.run(
            cmd, cwd=REPO, env=env, capture_output=True, text=True, errors="replace", timeout=seconds + 600
        )
        output, rc = result.stdout + result.stderr, result.returncode
    except subprocess.TimeoutExpired as err:  # libFuzzer ignored -max_total_time: killed
        parts = [
            p.decode(errors="replace") if isinstance(p, bytes) else (p or "")
            for p in (err.stdout, err.stderr)
        ]
        output, rc = "".join(parts), -9
    elapsed = int(round(time.monotonic() - began))
    new = sorted(artefact_files(state, target) - before)
    logs = state / "logs"
    logs.mkdir(exist_ok=True)
    tail = "\n".join(output.splitlines()[-300:])
    (logs / f"{target}-{start.replace(':', '')}.log").write_text(tail + "\n", encoding="utf-8")
    known = ""
    if target == "api" and known_file.exists():
        try:
            counts = json.loads(known_file.read_text(encoding="utf-8")).get("known", {})
            known = ",".join(f"{k}={v}" for k, v in sorted(counts.items()))
        except (OSError, ValueError):
            known = "unreadable"
    return {
        "target": target,
        "start_utc": start,
        "seconds": elapsed,
        "executions": executions(output),
        "crashes": len(new),
        "rc": rc,
        "artifacts": " ".join(new),
        "known": known,
    }


def run(args: argparse.Namespace) -> int:
    state = state_dir()
    state.mkdir(parents=True, exist_ok=True)
    lock = (state / "campaign.lock").open("w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print(f"campaign: another campaign holds {state / 'campaign.lock'}", file=sys.stderr)
        return 1
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
    while True:
        if (state / "STOP").exists():
            print("campaign: STOP file found, ending", file=sys.stderr)
            return 0
        per = totals(read_log(state))
        pending = [t for t in targets if goal_s <= 0 or per.get(t, {}).get("seconds", 0) < goal_s]
        if not pending:
            print("campaign: every target reached its goal", file=sys.stderr)
            print(summary(state))
            return 0
        if args.max_rounds and rounds >= args.max_rounds:
            return 0
        rounds += 1
        # Least-fuzzed first, so a restarted campaign evens out the time.
        pending.sort(key=lambda t: (per.get(t, {}).get("seconds", 0), targets.index(t)))
        if any(t in CARGO_TARGETS for t in pending) and not build(state):
            time.sleep(300)
            continue
        for target in pending:
            if (state / "STOP").exists():
                break
            left = goal_s - totals(read_log(state)).get(target, {}).get("seconds", 0)
            seconds = slice_s if goal_s <= 0 else max(60, min(slice_s, left))
            print(f"campaign: {now_utc()} {target} for {seconds} s", file=sys.stderr, flush=True)
            row = run_slice(target, state, seconds, triple)
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
    sub.add_parser("summary", help="total seconds, executions and crashes per target over all slices")
    args = parser.parse_args()
    if args.command == "summary":
        print(summary(state_dir()))
        return 0
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
