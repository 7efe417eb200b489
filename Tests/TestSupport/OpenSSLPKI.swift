import Foundation
import Testing

/// A document and its PKI made by OpenSSL (and coreutils), none of this project's code: a fresh
/// P-256 CSCA, a DSC under it (serial 1234, digitalSignature), an EF.SOD over the two data groups
/// given (`SOD.bin`, the DSC carried; `nocert/SOD.bin`, without it), the CSCA's CRL revoking the
/// DSC (`crl.pem`, `crl.der`), and ICAO PKD-style LDIF files (`pkd-dsc.ldif`: the DSC;
/// `pkd-crl.ldif`: the CRL), for the revocation and PKD tests of CMS and the CLI.
public enum OpenSSLPKI {
    static let script = #"""
        set -eu
        D=$1; cp "$2" "$D/DG1.bin"; cp "$3" "$D/DG2.bin"; cd "$D"
        openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout csca.key -out csca.pem \
            -days 3650 -subj "/C=$4/O=OpenSSL PKI/CN=OpenSSL CSCA" \
            -addext "keyUsage=critical,keyCertSign,cRLSign" -addext "basicConstraints=critical,CA:true" 2>/dev/null
        openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout dsc.key -out dsc.csr \
            -subj "/C=UT/O=OpenSSL PKI/CN=OpenSSL DS" 2>/dev/null
        printf 'keyUsage=critical,digitalSignature\n' > dsc.ext
        openssl x509 -req -in dsc.csr -CA csca.pem -CAkey csca.key -set_serial 0x1234 -days 365 -extfile dsc.ext \
            -out dsc.pem 2>/dev/null
        openssl x509 -in dsc.pem -outform DER -out dsc.der
        H1=$(openssl dgst -sha256 -hex DG1.bin | sed 's/.*= //'); H2=$(openssl dgst -sha256 -hex DG2.bin | sed 's/.*= //')
        # LDSSecurityObject ::= SEQUENCE { version, hashAlgorithm, SEQUENCE OF DataGroupHash }
        printf 'asn1=SEQUENCE:lso\n[lso]\nv=INTEGER:0\na=SEQUENCE:alg\nh=SEQUENCE:hashes\n[alg]\no=OID:sha256\n' > lso.cnf
        printf '[hashes]\nh1=SEQUENCE:h1\nh2=SEQUENCE:h2\n[h1]\nn=INTEGER:1\nv=FORMAT:HEX,OCTETSTRING:%s\n' "$H1" >> lso.cnf
        printf '[h2]\nn=INTEGER:2\nv=FORMAT:HEX,OCTETSTRING:%s\n' "$H2" >> lso.cnf
        openssl asn1parse -genconf lso.cnf -out lso.der -noout
        sod() { # [APPLICATION 23] around a ContentInfo of at most 65535 bytes
            L=$(stat -c %s "$1"); printf "$(printf '\\%03o' 119 130 $((L >> 8)) $((L & 255)))"; cat "$1"
        }
        openssl cms -sign -binary -nodetach -in lso.der -econtent_type 2.23.136.1.1.1 -signer dsc.pem -inkey dsc.key \
            -md sha256 -outform DER -out cms.der
        openssl cms -sign -binary -nodetach -nocerts -in lso.der -econtent_type 2.23.136.1.1.1 -signer dsc.pem \
            -inkey dsc.key -md sha256 -outform DER -out cms-nocert.der
        sod cms.der > SOD.bin
        mkdir -p nocert; cp DG1.bin DG2.bin nocert/; sod cms-nocert.der > nocert/SOD.bin
        mkdir -p ca; : > ca/index.txt; echo 01 > ca/crlnumber
        printf '[ca]\ndefault_ca=csca\n[csca]\ndatabase=%s/ca/index.txt\ncrlnumber=%s/ca/crlnumber\n' "$D" "$D" > ca.cnf
        printf 'certificate=%s/csca.pem\nprivate_key=%s/csca.key\ndefault_md=sha256\ndefault_crl_days=30\n' "$D" "$D" >> ca.cnf
        openssl ca -config ca.cnf -revoke dsc.pem -crl_reason keyCompromise -batch 2>/dev/null
        openssl ca -config ca.cnf -gencrl -out crl.pem -batch 2>/dev/null
        openssl crl -in crl.pem -outform DER -out crl.der
        entry() { # dn attribute file
            printf 'dn: %s\nobjectClass: pkdDownload\n%s:: ' "$1" "$2"; base64 -w 76 "$3" | sed '2,$s/^/ /'; printf '\n'
        }
        { printf 'version: 1\n\n'; entry "cn=OpenSSL DS,o=dsc,c=UT,dc=data,dc=download,dc=pkd,dc=icao,dc=int" \
            "userCertificate;binary" dsc.der; } > pkd-dsc.ldif
        { printf '# CRLs\nversion: 1\n\n'; entry "cn=OpenSSL CSCA,o=crl,c=UT,dc=data,dc=download,dc=pkd,dc=icao,dc=int" \
            "certificateRevocationList;binary" crl.der; } > pkd-crl.ldif
        """#

    /// Makes the PKI in `directory` over the data groups `dataGroup1` and `dataGroup2`, its CSCA
    /// of `country` (the tests' DG1 is German: a CSCA of another country is denied it); nil after
    /// recording that OpenSSL is missing.
    public static func make(in directory: URL, dataGroup1: URL, dataGroup2: URL, country: String = "DE") throws
        -> URL?
    {
        guard Prerequisites.tool("openssl", package: "openssl") != nil else { return nil }
        let result = try Subprocess.run(
            "/bin/sh", ["-c", script, "sh", directory.path, dataGroup1.path, dataGroup2.path, country])
        guard result.status == 0 else {
            throw Subprocess.LaunchError(description: "OpenSSL PKI script failed: \(result.combinedOutput)")
        }
        return directory
    }
}
