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


def iso39794(part, *representations):
    """ISO/IEC 39794-4/-5/-6 ([APPLICATION part]): a version block (generation 3, 2019), then the
    representation blocks, each a SEQUENCE of the given fields."""
    version = tlv(0xA0, tlv(0x80, b"\x03"), tlv(0x81, b"\x07\xe3"))
    return tlv(0x60 + part, version, tlv(0xA1, *[tlv(0x30, *fields) for fields in representations]))


def capture_date(tag):
    """A CaptureDateTimeBlock (2019-07-08, 13:45) under the representation's tag for it."""
    return tlv(tag, tlv(0x80, b"\x07\xe3"), tlv(0x81, b"\x07"), tlv(0x82, b"\x08"), tlv(0x83, b"\x0d"),
               tlv(0x84, b"\x2d"))


def code(tag, value):
    """A code as 39794 writes it: a CHOICE of the code [0] and an extension block."""
    return tlv(tag, tlv(0x80, bytes([value])))


def quality_blocks(tag, score):
    """QualityBlocks: one block whose algorithm failed, then one with a score."""
    algorithm = tlv(0xA0, tlv(0x80, b"\x01\x01"), tlv(0x81, b"\x01"))
    failed = tlv(0x30, algorithm, tlv(0xA1, tlv(0xA1, tlv(0x80, b"\x00"))))
    return tlv(tag, failed, tlv(0x30, algorithm, tlv(0xA1, tlv(0x80, bytes([score])))))


def biometric_group(outer_tag, header, data_block):
    """ICAO 9303-10 DG2-DG4: a biometric information group template with one template."""
    return tlv(outer_tag, tlv(0x7F61, tlv(0x02, b"\x01"), tlv(0x7F60, tlv(0xA1, *header), data_block)))


def header_19794(biometric_type):
    """The biometric header template of a 19794 record: type, owner ISO/IEC JTC 1/SC 37, type 8."""
    return [tlv(0x80, b"\x01\x01"), tlv(0x81, bytes([biometric_type])), tlv(0x87, b"\x01\x01"),
            tlv(0x88, b"\x00\x08")]


def group_19794(outer_tag, record, biometric_type):
    return biometric_group(outer_tag, header_19794(biometric_type), tlv(0x5F2E, record))


# 39794 records: a face with its image three levels down; a finger (right index, rolled, JPEG 2000
# lossless) with its capture date and quality; an iris (right, cropped, 8 bits, JPEG 2000
# lossless) with its date, quality and roll angle, and an iris representation without an image
# (a warning).
face_39794 = iso39794(5, [tlv(0x80, b"\x01"), tlv(0xA1, tlv(0xA0, tlv(0xA0, tlv(0x80, jp2)))), capture_date(0xA2)])
finger_39794 = iso39794(
    4, [code(0xA0, 2), code(0xA1, 1), code(0xA2, 3), tlv(0x83, j2k), capture_date(0xA4), quality_blocks(0xA6, 60)])
iris_39794 = iso39794(
    6,
    [tlv(0x80, b"\x01"), code(0xA1, 3), tlv(0x82, b"\x08"), code(0xA3, 3), tlv(0x84, b"\x01"), tlv(0x85, b"\x01"),
     tlv(0x86, b"\x01"), capture_date(0xA7), tlv(0x88, jp2), quality_blocks(0xAB, 70),
     tlv(0xAC, tlv(0x80, b"\x00\x5a"), tlv(0x81, b"\x05"))],
    [tlv(0x80, b"\x02")])


def crafted(size, levels, layers=1, precinct_exponent=None):
    """A bare codestream as issue 43's hostile faces: SIZ, COD (small precincts, many levels or
    layers), QCD, one tile-part of 16 empty packets; the decoder refuses them from their headers."""
    siz = struct.pack(">HIIIIIIIIH", 0, size, size, 0, 0, size, size, 0, 0, 1) + b"\x07\x01\x01"
    precincts = b"" if precinct_exponent is None else bytes([precinct_exponent * 0x11] * (levels + 1))
    cod = bytes([0 if precinct_exponent is None else 1, 0]) + struct.pack(">H", layers)
    cod += bytes([0, levels, 4, 4, 0, 1]) + precincts
    qcd = bytes([0x40] * (3 * levels + 2))
    data = bytes(16)

    def segment(marker, body):
        return bytes([0xFF, marker]) + struct.pack(">H", len(body) + 2) + body

    tile_part = segment(0x90, struct.pack(">HIBB", 0, 14 + len(data), 0, 1))
    return b"\xff\x4f" + segment(0x51, siz) + segment(0x52, cod) + segment(0x5C, qcd) + tile_part \
        + b"\xff\x93" + data + b"\xff\xd9"


hostile = {
    "precincts-2048": crafted(2048, 11, precinct_exponent=1),
    "precincts-4096": crafted(4096, 12, precinct_exponent=1),
    "layers-65535": crafted(2048, 5, layers=65535, precinct_exponent=1),
}

# In a data group the 39794 record is a constructed data block, in DG2 under a [1] choice.
header_39794 = [tlv(0x87, b"\x01\x01"), tlv(0x88, b"\x00\x2a")]

files = {
    "dg2/face-jp2": group_19794(0x75, face(jp2, 1, 8, 8), 0x02),
    "dg2/face-j2k": group_19794(0x75, face(j2k, 1, 16, 12), 0x02),
    "dg2/face-39794": biometric_group(0x75, header_39794, tlv(0x7F2E, tlv(0xA1, face_39794))),
    "dg3/finger-jp2": group_19794(0x63, finger(jp2, 4, 8, 8), 0x08),
    "dg3/finger-39794": biometric_group(0x63, header_39794[:1], tlv(0x7F2E, finger_39794)),
    "dg4/iris-jp2": group_19794(0x76, iris(jp2, 0x0E, 8, 8), 0x10),
    "dg4/iris-39794": biometric_group(0x76, header_39794[:1], tlv(0x7F2E, iris_39794)),
    "dg5/portrait-jp2": tlv(0x65, tlv(0x02, b"\x01"), tlv(0x5F40, jp2)),
    "dg7/signature-j2k": tlv(0x67, tlv(0x02, b"\x01"), tlv(0x5F43, j2k)),
    "biometric/face-jp2": face(jp2, 1, 8, 8),
    "biometric/finger-j2k": finger(j2k, 4, 16, 12),
    "biometric/iris-jp2": iris(jp2, 0x0E, 8, 8),
    "biometric/face-39794": face_39794,
    "biometric/finger-39794": finger_39794,
    "biometric/iris-39794": iris_39794,
}
for name, codestream in hostile.items():
    files[f"jpeg2000/{name}.j2k"] = codestream
    files[f"dg2/face-{name}"] = group_19794(0x75, face(codestream, 1, 4096 if "4096" in name else 2048,
                                                      4096 if "4096" in name else 2048), 0x02)
for name, content in files.items():
    os.makedirs(os.path.dirname(f"{seeds}/{name}"), exist_ok=True)
    open(f"{seeds}/{name}", "wb").write(content)
