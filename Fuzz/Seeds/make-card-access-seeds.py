#!/usr/bin/env python3
"""Writes Fuzz/Seeds/cardAccess/: EF.CardAccess files as real chips write them, beside their
PACEInfos (ChipFault.clutteredCardAccess, Packages/ChipSimulator/FIELD-QUIRKS.md item 11): an
unknown SecurityInfo, a TerminalAuthenticationInfo, a PACEInfo of an unknown id-PACE protocol, a
PACEInfo without its OPTIONAL parameterId, and GM beside IM on brainpoolP256r1 (the French 2024
ID). Run from the repo root: python3 Fuzz/Seeds/make-card-access-seeds.py
"""
import pathlib


def tlv(tag: int, value: bytes) -> bytes:
    n = len(value)
    length = bytes([n]) if n < 128 else (b"\x81" + bytes([n]) if n < 256 else b"\x82" + n.to_bytes(2, "big"))
    return bytes([tag]) + length + value


def oid(dotted: str) -> bytes:
    arcs = [int(part) for part in dotted.split(".")]
    body = bytes([40 * arcs[0] + arcs[1]])
    for arc in arcs[2:]:
        chunk = [arc & 0x7F]
        arc >>= 7
        while arc:
            chunk.insert(0, 0x80 | (arc & 0x7F))
            arc >>= 7
        body += bytes(chunk)
    return tlv(0x06, body)


def integer(value: int) -> bytes:
    return tlv(0x02, value.to_bytes(max(1, (value.bit_length() + 8) // 8), "big"))


def sequence(*elements: bytes) -> bytes:
    return tlv(0x30, b"".join(elements))


def der_set(*elements: bytes) -> bytes:
    return tlv(0x31, b"".join(sorted(elements)))


PACE_GM_AES128 = "0.4.0.127.0.7.2.2.4.2.2"
PACE_IM_AES128 = "0.4.0.127.0.7.2.2.4.4.2"
CLUTTER = [
    sequence(oid("1.3.6.1.4.1.99999.1"), integer(1)),
    sequence(oid("0.4.0.127.0.7.2.2.2"), integer(2)),
    sequence(oid("0.4.0.127.0.7.2.2.4.9.9"), integer(2), integer(13)),
    sequence(oid(PACE_GM_AES128), integer(2)),
]
seeds = {
    "cluttered": der_set(*CLUTTER, sequence(oid(PACE_GM_AES128), integer(2), integer(13))),
    "gm-and-im": der_set(
        sequence(oid(PACE_GM_AES128), integer(2), integer(13)),
        sequence(oid(PACE_IM_AES128), integer(2), integer(13)),
    ),
}

folder = pathlib.Path("Fuzz/Seeds/cardAccess")
folder.mkdir(parents=True, exist_ok=True)
for name, data in seeds.items():
    (folder / name).write_bytes(data)
    print(f"{name}: {len(data)} bytes")
