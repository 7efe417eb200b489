#!/usr/bin/env python3
"""Writes Fuzz/Seeds/chip/: answer scripts for the `chip` target (Fuzz/Sources/ChipTarget.swift).

Each seed is a setting byte, then one answer per command the reader sends: a control byte
(bit 0: unprotected), a length (255: two more bytes), the data and the status word. The files
are the ICAO 9303-10 specimen EF.COM and the 9303-3 TD3 specimen zone in DG1. Run from the repo
root: python3 Fuzz/Seeds/make-chip-seeds.py
"""
import pathlib

OK = b"\x90\x00"


def tlv(tag: bytes, value: bytes) -> bytes:
    n = len(value)
    length = bytes([n]) if n < 128 else (b"\x81" + bytes([n]) if n < 256 else b"\x82" + n.to_bytes(2, "big"))
    return tag + length + value


def answer(data: bytes = b"", status: bytes = OK, unprotected: bool = False) -> bytes:
    length = bytes([len(data)]) if len(data) < 255 else b"\xff" + len(data).to_bytes(2, "big")
    return bytes([1 if unprotected else 0]) + length + data + status


def file_read(contents: bytes) -> bytes:
    """SELECT, the 4-byte header read, then the rest in one answer."""
    return answer() + answer(contents[:4]) + answer(contents[4:])


def laddered_read(contents: bytes) -> bytes:
    """A file longer than 255 bytes from a chip refusing Le 255 (6700): the reader steps to 223."""
    rest = contents[4:]
    return answer() + answer(contents[:4]) + answer(status=b"\x67\x00") + answer(rest[:223]) + answer(rest[223:])


def header_first(contents: bytes) -> bytes:
    """The 4-byte header read, then the rest (no SELECT: by short EF identifier)."""
    return answer(contents[:4]) + answer(contents[4:])


def quirk_read(contents: bytes, refusal: bytes) -> bytes:
    """A whole first read the chip refuses (6B00 past the end, 9000 with nothing), then the
    header and the rest."""
    return refusal + header_first(contents)


EOF = b"\x62\x82"
# What a chip's 6282 may carry after the file's last byte (ChipFault.paddedEndOfFile).
PADDING = b"\x00\x00\x80"
COM = tlv(b"\x60", tlv(b"\x5f\x01", b"0107") + tlv(b"\x5f\x36", b"040000") + tlv(b"\x5c", b"\x61\x75\x6b\x6c\x6e"))
ZONE = (
    b"P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<"
    b"L898902C36UTO7408122F1204159ZE184226B<<<<<10"
)
DG1 = tlv(b"\x61", tlv(b"\x5f\x1f", ZONE))
# EF.COM in BER with an indefinite outer length and its end-of-contents.
INDEFINITE_COM = b"\x60\x80" + COM[2:] + b"\x00\x00"
# An EF.COM padded past 255 bytes with a discretionary data object, to make the Le ladder step.
LONG_COM = tlv(b"\x60", tlv(b"\x5f\x01", b"0107") + tlv(b"\x5f\x36", b"040000") + tlv(b"\x5c", b"\x61\x75") + tlv(b"\x53", bytes(280)))
READ_BOTH = file_read(COM) + file_read(DG1)

seeds = {
    "plain-short": b"\x00" + READ_BOTH,
    "plain-extended": b"\x01" + READ_BOTH,
    "plain-ladder": b"\x00" + laddered_read(LONG_COM) + file_read(DG1),
    "plain-end-of-file": b"\x00" + answer() + answer(COM[:4]) + answer(COM[4:], status=b"\x62\x82"),
    "plain-absent-files": b"\x00" + answer(status=b"\x6a\x82") + answer(status=b"\x69\x82") + file_read(DG1),
    "sm-3des": b"\x02" + READ_BOTH,
    "sm-aes": b"\x06" + READ_BOTH,
    "sm-bare-status": b"\x02" + answer(status=b"\x6a\x82", unprotected=True) + file_read(DG1),
    # The field quirks of the simulator's faults (Packages/ChipSimulator/FIELD-QUIRKS.md), as the
    # reader meets them reading by short EF identifier: the whole first read refused, the header,
    # then the rest; the file being shorter than the refused Le, the next file starts with its
    # header.
    "plain-empty-answer": b"\x00" + quirk_read(COM, answer()) + header_first(DG1),
    "sm-empty-answer": b"\x02" + quirk_read(COM, answer()) + header_first(DG1),
    "plain-past-end-6b00": b"\x00" + quirk_read(COM, answer(status=b"\x6b\x00")) + header_first(DG1),
    "sm-past-end-6b00": b"\x06" + quirk_read(COM, answer(status=b"\x6b\x00")) + header_first(DG1),
    # EF.COM with an indefinite outer length on a chip refusing reads past the end: the whole
    # read refused, the header, a read past the end refused, then the rest up to the end-of-contents.
    "plain-indefinite-6b00": b"\x00"
    + answer(status=b"\x6b\x00")
    + answer(INDEFINITE_COM[:4])
    + answer(status=b"\x6b\x00")
    + answer(INDEFINITE_COM[4:])
    + header_first(DG1),
    "plain-padded-end": b"\x00" + answer(COM + PADDING, status=EOF) + answer(DG1 + PADDING, status=EOF),
    "sm-padded-end": b"\x02" + answer(COM + PADDING, status=EOF) + answer(DG1 + PADDING, status=EOF),
    "extended-empty-answer": b"\x03" + quirk_read(COM, answer()) + quirk_read(DG1, answer()),
    "access-select-mf-refused": b"\x08"
    + answer(status=b"\x6a\x87")  # SELECT MF by 3F00
    + answer(status=b"\x6a\x87")  # SELECT MF without data
    + answer(status=b"\x62\x83")  # EF.CardAccess invalidated: no PACE
    + answer()  # SELECT eMRTD application
    + answer(bytes.fromhex("4608F91988702212"))  # GET CHALLENGE
    + answer(bytes(40)),  # EXTERNAL AUTHENTICATE
    "access-bac-6985": b"\x08" + answer() + answer(status=b"\x6a\x82") + answer() + answer(status=b"\x69\x85"),
    "access-bac": b"\x08"
    + answer()  # SELECT MF
    + answer(status=b"\x6a\x82")  # EF.CardAccess absent
    + answer()  # SELECT eMRTD application
    + answer(bytes.fromhex("4608F91988702212"))  # GET CHALLENGE (9303-11 App. D.3)
    + answer(bytes(40)),  # EXTERNAL AUTHENTICATE: 32 + 8 bytes, MAC wrong
}

folder = pathlib.Path("Fuzz/Seeds/chip")
folder.mkdir(parents=True, exist_ok=True)
for name, data in seeds.items():
    (folder / name).write_bytes(data)
    print(f"{name}: {len(data)} bytes")
