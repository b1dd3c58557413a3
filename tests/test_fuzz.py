"""Smoke runs of the fuzzers, 60 seconds each (marker ``slow``: ``pytest -m slow tests/test_fuzz.py``).

Each cargo-fuzz target of ``rust/fuzz`` (built with ``-a``: debug assertions and overflow checks) and
the atheris fuzzer ``tests/fuzz/fuzz_api.py`` runs from its committed seed corpus, writing new inputs
and any crash artefact to a temporary folder; the test asserts exit status 0 and no artefact. Nothing
is skipped: without the nightly toolchain, ``cargo-fuzz`` or ``atheris`` the tests fail and say what to
install. The long campaign is ``rust/fuzz/campaign.py`` (see ``rust/fuzz/README.md``).
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FUZZ_DIR = ROOT / "rust" / "fuzz"
ATHERIS_SCRIPT = ROOT / "tests" / "fuzz" / "fuzz_api.py"
SMOKE_SECONDS = 60
CARGO_TARGETS = ["fen", "moves", "eval_symmetry", "tt"]
BUILD_TIMEOUT_S = 1800
"""Building the targets from scratch (AddressSanitizer, the core's build script) takes minutes."""
SLACK_S = 300
"""Time allowed beyond the fuzzing itself: start-up, loading the corpus, final merge."""


def _fuzz(
    command: list[str], seeds: Path, tmp_path: Path, what: str, separator: tuple[str, ...] = ()
) -> None:
    """Runs a libFuzzer *command* for ``SMOKE_SECONDS`` from the committed *seeds* (its arguments: the
    corpora, then *separator*, then libFuzzer's options), new inputs and artefacts under *tmp_path*;
    fails on a non-zero exit, any artefact, or missing final statistics."""
    assert any(seeds.iterdir()), f"no committed seeds in {seeds}"
    corpus = tmp_path / "corpus"
    artifacts = tmp_path / "artifacts"
    corpus.mkdir()
    artifacts.mkdir()
    options = [f"-max_total_time={SMOKE_SECONDS}", f"-artifact_prefix={artifacts}/", "-print_final_stats=1"]
    result = subprocess.run(
        [*command, str(corpus), str(seeds), *separator, *options],
        cwd=ROOT,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=SMOKE_SECONDS + SLACK_S,
    )
    output = result.stdout + result.stderr
    found = sorted(p.name for p in artifacts.iterdir())
    assert result.returncode == 0 and not found, (
        f"{what} failed: exit status {result.returncode}, artefacts {found} in {artifacts}\n"
        f"reproduce with the artefact as the only input (rust/fuzz/README.md)\n{output[-8000:]}"
    )
    assert "stat::number_of_executed_units" in output, f"{what}: no final stats\n{output[-4000:]}"


@pytest.fixture(scope="module")
def cargo_fuzz_built() -> None:
    if shutil.which("cargo") is None:
        pytest.fail("cargo is not on PATH: install Rust with rustup to run the cargo-fuzz smoke tests")
    probe = subprocess.run(["cargo", "+nightly", "fuzz", "--version"], capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.fail(
            "`cargo +nightly fuzz` is not available: `rustup toolchain install nightly` and "
            f"`cargo install cargo-fuzz` ({probe.stderr.strip()[-500:]})"
        )
    build = subprocess.run(
        ["cargo", "+nightly", "fuzz", "build", "--fuzz-dir", str(FUZZ_DIR), "-a"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT_S,
    )
    assert build.returncode == 0, f"cargo fuzz build failed:\n{build.stderr[-8000:]}"


@pytest.mark.slow
@pytest.mark.parametrize("target", CARGO_TARGETS)
def test_cargo_fuzz_target_smoke(target: str, tmp_path: Path, cargo_fuzz_built: None) -> None:
    command = ["cargo", "+nightly", "fuzz", "run", "--fuzz-dir", str(FUZZ_DIR), "-a", target]
    # cargo fuzz hands what follows "--" to libFuzzer.
    _fuzz(command, FUZZ_DIR / "corpus" / target, tmp_path, f"cargo fuzz target {target!r}", ("--",))


@pytest.mark.slow
def test_atheris_api_fuzzer_smoke(tmp_path: Path) -> None:
    if importlib.util.find_spec("atheris") is None:
        pytest.fail(f"atheris is not installed for {sys.executable}: pip install -e '.[fuzz]'")
    command = [sys.executable, str(ATHERIS_SCRIPT), "-timeout=30"]
    _fuzz(command, ATHERIS_SCRIPT.parent / "corpus", tmp_path, "atheris fuzzer tests/fuzz/fuzz_api.py")
