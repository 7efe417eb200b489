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
    result = subprocess.run([emrtd, "mrz", *lines], capture_output=True, text=True, check=True)
    zone = json.loads(result.stdout)
    layout = zone["td1"] or zone["td2"] or zone["td3"]
    verdict = lambda element: None if element is None else element["isValid"]  # noqa: E731
    checks = [layout["documentNumber"]["checkDigit"], layout["dateOfBirth"]["checkDigit"],
              layout["dateOfExpiry"]["checkDigit"], layout.get("optionalDataCheckDigit"),
              layout["compositeCheckDigit"]]
    return {
        "l": zone["lines"], "t": zone["travelDocumentType"],
        "dc": layout["documentCode"]["value"], "is": layout["issuingStateOrOrganization"]["value"],
        "n": layout["nationality"]["value"],
        "dn": layout["documentNumber"]["value"], "dnv": verdict(checks[0]),
        "b": layout["dateOfBirth"]["raw"], "bv": verdict(checks[1]),
        "e": layout["dateOfExpiry"]["raw"], "ev": verdict(checks[2]),
        "s": layout["sex"]["value"], "p": layout["name"]["primaryIdentifier"],
        "g": layout["name"]["secondaryIdentifier"], "o": [element["value"] for element in layout["optionalData"]],
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
