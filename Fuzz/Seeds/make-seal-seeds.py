#!/usr/bin/env python3
"""Writes seal/: Visible Digital Seals made here (never ../shared's), signed by a fresh P-256 key
certified by a fresh CSCA (signer C=UT, CN=TS, serial 5C; CSCA C=UT, CN=UT Seal CSCA), so that the seal target's inputs reach
the signature check: a VDS v4 residence permit, a v3 visa (MRV-B, duration, passport number), the
visa as hexadecimal text, a VDS-NC, and an IDB (RDB1…), also zlib-compressed (RDB1D…). Python `cryptography` (Debian's python3-cryptography).
Run from the repository root: python3 Fuzz/Seeds/make-seal-seeds.py [DIR], DIR receiving the
CSCA and the signer (csca.der, signer.der) for a test that verifies these seals."""
import sys
import base64, datetime, json, os, zlib
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils
from cryptography.x509.oid import NameOID

def c40(text):
    values = [{" ": 3}.get(ch) or (ord(ch) - 44 if ch.isdigit() else ord(ch) - 51) for ch in text]
    out = b""
    while len(values) >= 3 or (len(values) == 2):
        a, b, c = (values + [0])[:3]
        v = 1600 * a + 40 * b + c + 1
        out += bytes([v >> 8, v & 0xFF])
        values = values[3:] if len(values) >= 3 else []
    if values:
        out += bytes([0xFE, ord(text[-1]) + 1])
    return out

def date3(y, m, d):
    return int("%02d%02d%04d" % (m, d, y)).to_bytes(3, "big")

def tlv(tag, value):
    n = len(value)
    return bytes([tag]) + (bytes([n]) if n < 0x80 else bytes([0x81, n])) + value

def certificate(subject, issuer, public_key, signing_key, serial, usage):
    return (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(public_key)
            .serial_number(serial).not_valid_before(now).not_valid_after(now + datetime.timedelta(days=3650))
            .add_extension(x509.KeyUsage(digital_signature=not usage, content_commitment=False,
                                         key_encipherment=False, data_encipherment=False, key_agreement=False,
                                         key_cert_sign=usage, crl_sign=usage, encipher_only=False,
                                         decipher_only=False), critical=True)
            .add_extension(x509.BasicConstraints(ca=usage, path_length=0 if usage else None), critical=True)
            .sign(signing_key, hashes.SHA256()))

now = datetime.datetime(2026, 1, 1)
csca_key = ec.generate_private_key(ec.SECP256R1())
csca_name = x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "UT"),
                       x509.NameAttribute(NameOID.COMMON_NAME, "UT Seal CSCA")])
csca = certificate(csca_name, csca_name, csca_key.public_key(), csca_key, 1, True)
key = ec.generate_private_key(ec.SECP256R1())
name = x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "UT"), x509.NameAttribute(NameOID.COMMON_NAME, "TS")])
cert = certificate(name, csca_name, key.public_key(), csca_key, 0x5C, False)

def sign(message):
    r, s = utils.decode_dss_signature(key.sign(message, ec.ECDSA(hashes.SHA256())))
    return r.to_bytes(32, "big") + s.to_bytes(32, "big")

def vds(header, features):
    body = header + b"".join(tlv(t, v) for t, v in features)
    return body + tlv(0xFF, sign(body))

dates = date3(2026, 3, 1) + date3(2026, 3, 2)
permit = vds(b"\xDC\x03" + c40("UTO") + c40("UTTS02") + c40("5C") + dates + b"\xFB\x06",
             [(2, c40("ATD  RESIDORCE  ROLAND              6525845096USA7008038M2201018      06")),
              (3, c40("UFO001979"))])
visa = vds(b"\xDC\x02" + c40("UTO") + c40("UTTS0005C") + dates + b"\x5D\x01",
           [(2, c40("VCD  DENT  ARTHUR PHILIP            1234567XY7GBR5203116M2005250")),
            (4, b"\x1e\x00\x00"), (5, c40("47110815P"))])
data = {"hdr": {"t": "icao.test", "v": 1, "is": "UTO"}, "msg": {"pid": {"n": "Smith Bill", "i": "A1234567Z"}}}
canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
b64 = lambda b: base64.urlsafe_b64encode(b).decode().rstrip("=")
nc = {"data": data, "sig": {"alg": "ES256", "cer": b64(cert.public_bytes(serialization.Encoding.DER)),
                            "sigvl": b64(sign(canonical))}}
import hashlib
idb_header = c40("UTO") + b"\x01" + hashlib.sha1(cert.public_bytes(serialization.Encoding.DER)).digest()[-5:]
idb_header += b"\x00" + int("03012026").to_bytes(3, "big")
group = tlv(0x81, c40("ATD  RESIDORCE  ROLAND              6525845096USA7008038M2201018      06")) + tlv(0x86, b"\x0e")
idb_body = idb_header + tlv(0x61, group)
idb_payload = idb_body + tlv(0x7F, sign(idb_body))
idb = "RDB1B" + base64.b32encode(idb_payload).decode().rstrip("=")
idb_compressed = "RDB1D" + base64.b32encode(zlib.compress(idb_payload, 9)).decode().rstrip("=")
out = os.path.join(os.path.dirname(__file__), "seal")
os.makedirs(out, exist_ok=True)
for file, content in [("residence-permit.bin", permit), ("visa.bin", visa), ("visa.hex", visa.hex().upper().encode()),
                      ("vds-nc.json", json.dumps(nc).encode()), ("idb.txt", idb.encode()),
                      ("idb-compressed.txt", idb_compressed.encode())]:
    open(os.path.join(out, file), "wb").write(content)
if len(sys.argv) > 1:
    for file, certificate in [("csca.der", csca), ("signer.der", cert)]:
        open(os.path.join(sys.argv[1], file), "wb").write(certificate.public_bytes(serialization.Encoding.DER))
