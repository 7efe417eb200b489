#!/usr/bin/env python3
"""Runs `emrtd mrz` on zones it has never seen (a fresh seed each run) and checks its JSON
against the PyPI package `mrz`, the same way Tests/MRZTests/DifferentialTests.swift checks the
committed fixture.

    pip install mrz==0.6.2
    swift build --product emrtd
    python3 Tools/mrz-fixtures/check-cli.py [--emrtd .build/debug/emrtd] [--per-kind 40] [--seed N]
"""

import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402  (the fixture generator: zones and what `mrz` reads in them)


def read_with_emrtd(emrtd, lines):
    """The CLI's reading of a zone, in the fixture's short keys."""
    # Exit status 3 is a zone whose check digits or dates fail: its JSON is printed all the same.
    result = subprocess.run([emrtd, "mrz", *lines], capture_output=True, text=True)
    if result.returncode not in (0, 3):
        raise RuntimeError(f"emrtd mrz exited {result.returncode}: {result.stderr.strip()}")
    zone = json.loads(result.stdout)
    layout = zone["td1"] or zone["td2"] or zone["td3"]
    verdict = lambda element: None if element is None else element["isValid"]  # noqa: E731
    number = layout.get("documentNumber") or layout["passportNumber"]
    # TD1 has a list, TD2 one element; TD3's personal number has a check digit, empty on MRV-A.
    optional = layout.get("optionalData", layout.get("personalNumberOrOtherOptionalData"))
    optional = optional if isinstance(optional, list) else [optional]
    personal = layout.get("personalNumberOrOtherOptionalData")
    optional_check = personal["checkDigit"] if personal and personal["checkDigit"]["value"] else None
    name = lambda element: "" if element is None else element["value"]  # noqa: E731
    checks = [number["checkDigit"], layout["dateOfBirth"]["checkDigit"],
              layout["dateOfExpiry"]["checkDigit"], optional_check, layout["compositeCheckDigit"]]
    # The JSON names the layout (td2, td3); a visa is one starting with V.
    kind = zone["travelDocumentType"]
    if zone["lines"][0].startswith("V"):
        kind = {"td2": "mrvB", "td3": "mrvA"}.get(kind, kind)
    return {
        "l": zone["lines"], "t": kind,
        "dc": layout["documentCode"]["value"], "is": layout["issuingStateOrOrganization"]["value"],
        "n": layout["nationality"]["value"],
        "dn": number["value"], "dnv": verdict(checks[0]),
        "b": layout["dateOfBirth"]["raw"], "bv": verdict(checks[1]),
        "e": layout["dateOfExpiry"]["raw"], "ev": verdict(checks[2]),
        "s": layout["sex"]["value"], "p": name(layout["name"]["primaryIdentifier"]),
        "g": name(layout["name"]["secondaryIdentifier"]), "o": [element["value"] for element in optional],
        "ov": verdict(checks[3]), "cv": verdict(checks[4]),
        "ok": all(verdict(check) is not False for check in checks),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--emrtd", default=".build/debug/emrtd")
    parser.add_argument("--per-kind", type=int, default=40)
    parser.add_argument("--seed", type=int, default=int.from_bytes(os.urandom(8), "big"))
    options = parser.parse_args()
    generate.rng.seed(options.seed)
    checked = differing = 0
    for kind in ("td1", "td2", "td3", "mrvA", "mrvB"):
        for _ in range(options.per_kind):
            lines, overflow = generate.make_td1() if kind == "td1" else generate.make_two_line(kind)
            wanted = generate.expected(kind, lines, overflow)
            found = read_with_emrtd(options.emrtd, lines)
            checked += 1
            if found != wanted:
                differing += 1
                keys = [key for key in wanted if wanted[key] != found.get(key)]
                print(f"{lines}: {', '.join(f'{k}: {found.get(k)!r} != {wanted[k]!r}' for k in keys)}")
    print(f"seed {options.seed}: {checked - differing} passed, {differing} failed")
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
