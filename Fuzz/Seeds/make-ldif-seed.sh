#!/usr/bin/env bash
# Writes Fuzz/Seeds/pkd/small.ldif: an ICAO PKD-style LDIF download (RFC 2849) holding a fresh
# P-256 DSC, the CRL of its fresh CSCA revoking it, and the master list seed
# (Fuzz/Seeds/masterList/small.ml), each base64 in 76-column folded lines; and small.crl, that CRL
# in DER. Made with OpenSSL and coreutils, no code of this project. Run from the repo root.
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 3650 \
    -subj "/C=UT/O=Fuzz/CN=CSCA" -keyout "$work/csca.key" -out "$work/csca.pem" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/C=UT/O=Fuzz/CN=DS" \
    -keyout "$work/dsc.key" -out "$work/dsc.csr" 2>/dev/null
openssl x509 -req -in "$work/dsc.csr" -CA "$work/csca.pem" -CAkey "$work/csca.key" -set_serial 0x1234 \
    -days 365 -outform DER -out "$work/dsc.der" 2>/dev/null
mkdir -p "$work/ca"
: >"$work/ca/index.txt"
echo 01 >"$work/ca/crlnumber"
cat >"$work/ca.cnf" <<CNF
[ca]
default_ca=csca
[csca]
database=$work/ca/index.txt
crlnumber=$work/ca/crlnumber
certificate=$work/csca.pem
private_key=$work/csca.key
default_md=sha256
default_crl_days=30
CNF
openssl x509 -in "$work/dsc.der" -inform DER -out "$work/dsc.pem"
openssl ca -config "$work/ca.cnf" -revoke "$work/dsc.pem" -batch 2>/dev/null
openssl ca -config "$work/ca.cnf" -gencrl -batch 2>/dev/null | openssl crl -outform DER -out "$work/crl.der"
entry() { # dn attribute file
    printf 'dn: %s\nobjectClass: pkdDownload\n%s:: ' "$1" "$2"
    base64 -w 76 "$3" | sed '2,$s/^/ /'
    printf '\n'
}
mkdir -p Fuzz/Seeds/pkd
{
    printf 'version: 1\n\n'
    entry "cn=DS,o=dsc,c=UT,dc=data,dc=download,dc=pkd,dc=icao,dc=int" "userCertificate;binary" "$work/dsc.der"
    entry "cn=CSCA,o=crl,c=UT,dc=data,dc=download,dc=pkd,dc=icao,dc=int" "certificateRevocationList;binary" \
        "$work/crl.der"
    entry "cn=ML,o=ml,c=UT,dc=data,dc=download,dc=pkd,dc=icao,dc=int" "pkdMasterListContent" \
        Fuzz/Seeds/masterList/small.ml
} >Fuzz/Seeds/pkd/small.ldif
cp "$work/crl.der" Fuzz/Seeds/pkd/small.crl
