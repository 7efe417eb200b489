#!/usr/bin/env bash
# Writes Fuzz/Seeds/masterList/small.ml: a CSCA master list (ICAO 9303-12 §9) holding two fresh
# self-signed P-256 CSCAs, signed by a signer one of them issued. Real lists are 600-900 KB,
# too large to fuzz quickly; this one has every part of their structure. Run from the repo root.
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for name in A B; do
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 3650 \
        -subj "/C=UT/O=Fuzz/CN=CSCA $name" -keyout "$work/$name.key" -out "$work/$name.pem" 2>/dev/null
    openssl x509 -in "$work/$name.pem" -outform DER -out "$work/$name.der"
done
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/C=UT/O=Fuzz/CN=ML Signer" \
    -keyout "$work/signer.key" -out "$work/signer.csr" 2>/dev/null
openssl x509 -req -in "$work/signer.csr" -CA "$work/A.pem" -CAkey "$work/A.key" -days 3650 \
    -out "$work/signer.pem" 2>/dev/null
# CscaMasterList ::= SEQUENCE { version INTEGER (0), certList SET OF Certificate }
python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
def tlv(tag, value):
    n = len(value)
    length = bytes([n]) if n < 0x80 else bytes([0x82, n >> 8, n & 0xFF])
    return bytes([tag]) + length + value
certs = sorted(open(f"{work}/{name}.der", "rb").read() for name in "AB")
open(f"{work}/content.der", "wb").write(tlv(0x30, tlv(0x02, b"\x00") + tlv(0x31, b"".join(certs))))
PY
mkdir -p Fuzz/Seeds/masterList
openssl cms -sign -nodetach -binary -outform DER -econtent_type 2.23.136.1.1.2 -md sha256 \
    -in "$work/content.der" -signer "$work/signer.pem" -inkey "$work/signer.key" -out Fuzz/Seeds/masterList/small.ml
