#!/usr/bin/env python3
"""Writes small image-bearing seeds (DG2-DG5, DG7, bare biometric records) around the tiny
JPEG 2000 images in Fuzz/Seeds/jpeg2000, so the image data groups fuzz at hundreds of
inputs a second instead of the handful real 15 KB faces allow. Run from the repo root."""
import os
import struct

seeds = "Fuzz/Seeds"
jp2 = open(f"{seeds}/jpeg2000/rgb.jp2", "rb").read()
j2k = open(f"{seeds}/jpeg2000/grey.j2k", "rb").read()


def length(n):
    if n < 0x80:
        return bytes([n])
    body = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(body)]) + body


def tlv(tag, *content):
    value = b"".join(content)
    return tag.to_bytes((tag.bit_length() + 7) // 8, "big") + length(len(value)) + value


def face(image, data_type, width, height):
    """ISO/IEC 19794-5: one facial record, no feature points."""
    info = struct.pack(">BBHHBBHH", 1, data_type, width, height, 1, 2, 0, 0)
    record = struct.pack(">IHBBB3sH3s3s", 20 + 12 + len(image), 0, 1, 1, 1, b"\0\0\0", 0, b"\0\0\0", b"\0\0\0")
    body = record + info + image
    return b"FAC\x00010\x00" + struct.pack(">IH", 14 + len(body), 1) + body


def finger(image, compression, width, height):
    """ISO/IEC 19794-4: one finger view."""
    view = struct.pack(">IBBBBBHHB", 14 + len(image), 1, 1, 0, 80, 0, width, height, 0) + image
    header = b"FIR\x00010\x00" + (32 + len(view)).to_bytes(6, "big")
    header += struct.pack(">HHBB4H", 0, 31, 1, 1, 500, 500, 500, 500) + bytes([8, compression, 0, 0])
    return header + view


def iris(image, image_format, width, height):
    """ISO/IEC 19794-6: one subtype with one image."""
    header = struct.pack(">HBHHHHHHBB", 0, 1, 45, 0, 0, image_format, width, height, 8, 0) + bytes(16)
    body = struct.pack(">BH", 1, 1) + struct.pack(">HBHHI", 1, 80, 0, 0, len(image)) + image
    return b"IIR\x00010\x00" + struct.pack(">I", 8 + 4 + len(header) + len(body)) + header + body


def biometric_group(outer_tag, record, biometric_type):
    """ICAO 9303-10 DG2-DG4: a biometric information group template with one template."""
    header = tlv(0xA1, tlv(0x80, b"\x01\x01"), tlv(0x81, bytes([biometric_type])), tlv(0x87, b"\x01\x01"),
                 tlv(0x88, b"\x00\x08"))
    return tlv(outer_tag, tlv(0x7F61, tlv(0x02, b"\x01"), tlv(0x7F60, header, tlv(0x5F2E, record))))


files = {
    "dg2/face-jp2": biometric_group(0x75, face(jp2, 1, 8, 8), 0x02),
    "dg2/face-j2k": biometric_group(0x75, face(j2k, 1, 16, 12), 0x02),
    "dg3/finger-jp2": biometric_group(0x63, finger(jp2, 4, 8, 8), 0x08),
    "dg4/iris-jp2": biometric_group(0x76, iris(jp2, 0x0E, 8, 8), 0x10),
    "dg5/portrait-jp2": tlv(0x65, tlv(0x02, b"\x01"), tlv(0x5F40, jp2)),
    "dg7/signature-j2k": tlv(0x67, tlv(0x02, b"\x01"), tlv(0x5F43, j2k)),
    "biometric/face-jp2": face(jp2, 1, 8, 8),
    "biometric/finger-j2k": finger(j2k, 4, 16, 12),
    "biometric/iris-jp2": iris(jp2, 0x0E, 8, 8),
}
for name, content in files.items():
    os.makedirs(os.path.dirname(f"{seeds}/{name}"), exist_ok=True)
    open(f"{seeds}/{name}", "wb").write(content)
