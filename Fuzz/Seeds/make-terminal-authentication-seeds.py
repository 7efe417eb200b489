#!/usr/bin/env python3
"""Seeds of the `terminalAuthentication` target (Fuzz/Sources/ChipAuthenticationTargets.swift):
EF.CVCA's length and bytes, then the chip's plain answers, each a length byte and the answer.
Run from the repo root: python3 Fuzz/Seeds/make-terminal-authentication-seeds.py"""
import os

OK = b"\x90\x00"
CHALLENGE = bytes(range(1, 9)) + OK


def cvca(*cars):
    data = b"".join(b"\x42" + bytes([len(c)]) + c.encode() for c in cars)
    return data + b"\x00" * (36 - len(data))


def seed(file, answers):
    return bytes([len(file)]) + file + b"".join(bytes([len(a)]) + a for a in answers)


chain_ok = [OK] * 4 + [OK, CHALLENGE, OK]  # DST+PSO for DV and IS, Set AT, challenge, EXT AUTH
seeds = {
    "success": seed(cvca("FZCVCA00001"), chain_ok),
    "previous-trust-point": seed(cvca("XXCVCA00009", "FZCVCA00001"), chain_ok),
    "dv-refused-6a88": seed(cvca("FZCVCA00001"), [OK, b"\x6a\x88"]),
    "is-refused-6300": seed(cvca("FZCVCA00001"), [OK, OK, OK, b"\x63\x00"]),
    "signature-refused-6300": seed(cvca("FZCVCA00001"), [OK] * 5 + [CHALLENGE, b"\x63\x00"]),
    "short-challenge": seed(cvca("FZCVCA00001"), [OK] * 5 + [b"\x01\x02" + OK]),
    "unknown-trust-point": seed(cvca("XXCVCA00009"), []),
}
folder = "Fuzz/Seeds/terminalAuthentication"
os.makedirs(folder, exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(folder, name + ".bin"), "wb") as f:
        f.write(data)
