"""What the tests share: the `emrtd` binary that plays the chip, and the rule for missing
prerequisites (skip with the reason outside CI, fail when CI=true)."""

from __future__ import annotations

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


def prerequisite(available: bool, reason: str) -> None:
    """Skips the test when `available` is false, printing why; fails it under CI=true."""
    if available:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"missing prerequisite (CI=true): {reason}")
    print(f"skipped: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def emrtd_bin() -> str:
    """The `emrtd` CLI (EMRTD_BIN, else the release build beside this checkout)."""
    path = os.environ.get("EMRTD_BIN") or str(ROOT / ".build" / "release" / "emrtd")
    prerequisite(os.access(path, os.X_OK), f"no emrtd binary at {path} (Tools/build-release.sh builds it)")
    return path


@pytest.fixture
def pcsc_reader() -> tuple[str, bytes]:
    """The simulator behind pcscd (Tools/simulator.sh start --csca-out FILE): its reader and
    CSCA, named by EMRTD_TEST_PCSC_READER and EMRTD_TEST_PCSC_CSCA (Tools/test-bindings.sh sets
    them)."""
    reader = os.environ.get("EMRTD_TEST_PCSC_READER")
    csca = os.environ.get("EMRTD_TEST_PCSC_CSCA")
    prerequisite(
        bool(reader and csca and os.path.exists(csca)),
        "no simulator behind pcscd (EMRTD_TEST_PCSC_READER, EMRTD_TEST_PCSC_CSCA: Tools/test-bindings.sh)",
    )
    try:
        import smartcard  # noqa: F401
    except ImportError:
        prerequisite(False, "pyscard is not installed (Debian's python3-pyscard)")
    return reader, pathlib.Path(csca).read_bytes()

