#!/usr/bin/env python3
"""Generates Passive Authentication fault fixtures, independently of emrtd's own code.

Two test PKIs (RSA-2048 with PKCS#1 v1.5, and ECDSA on brainpoolP256r1 with *explicit*
domain parameters as ICAO 9303-12 requires) each sign a set of EF.SOD files, one per case.
Every case but the `valid-*` ones carries exactly one defect. The Swift tests in
Tests/CMSTests read the result and check each verdict and error.

Only PyPI's `cryptography` (keys, signatures) and `asn1crypto` (DER structures) and the
`openssl` CLI (explicit curve parameters) are used: none of this project's code.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install cryptography asn1crypto
    /tmp/venv/bin/python Tools/make-pa-fixtures.py Tests/Fixtures/CMS/pa-faults

The same libraries also verify dumps, as the reference of `emrtd-bench pa` (Debian's
python3-cryptography and python3-asn1crypto, which Tools/setup.sh installs):

    Tools/make-pa-fixtures.py verify [--csca FILE]... DUMP... < /dev/null   # or --list FILE|-

prints one JSON line per dump (`path`, `sodSignatureValid`, `certificateChainValid`,
`dataGroupHashesValid`, `error`) then `{"documents": N, "seconds": S}`: the EF.SOD's signature
over its signed attributes (messageDigest checked), the DSC's signature by a CSCA of the same
name, and the hash of each DGn.bin beside it. No validity dates, no revocation: the signatures
and hashes only, which is where the time goes.

Output: <out>/<pki>/csca.pem (the trusted CSCA), <out>/<pki>/<case>/{SOD.bin,DG1.bin,...};
a case may add dsc.pem (a DSC the test puts in the trust store) or link.pem.
Keys are random on every run, so regenerating changes every byte but no verdict.
"""

import datetime
import hashlib
import json
import os
import subprocess
import sys
import time

from asn1crypto import algos, cms, core, keys, x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa


class DataGroupHash(core.Sequence):
    """DataGroupHash ::= SEQUENCE { dataGroupNumber INTEGER, dataGroupHashValue OCTET STRING }"""

    _fields = [("data_group_number", core.Integer), ("data_group_hash_value", core.OctetString)]


class DataGroupHashes(core.SequenceOf):
    _child_spec = DataGroupHash


class LDSSecurityObject(core.Sequence):
    """LDSSecurityObject ::= SEQUENCE { version, hashAlgorithm, dataGroupHashValues } (9303-10 §4.6.2)"""

    _fields = [
        ("version", core.Integer),
        ("hash_algorithm", algos.DigestAlgorithm),
        ("data_group_hash_values", DataGroupHashes),
    ]


LDS_SECURITY_OBJECT = "2.23.136.1.1.1"
ID_DATA = "1.2.840.113549.1.7.1"

CHECK_TIME = "2026-06-01T00:00:00Z"  # the time the tests verify at (documented in the README)


def utc(year, month=1, day=1):
    return datetime.datetime(year, month, day, tzinfo=datetime.timezone.utc)


def der_length(length):
    if length < 0x80:
        return bytes([length])
    body = length.to_bytes((length.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(body)]) + body


def tlv(tag, value):
    return bytes(tag) + der_length(len(value)) + value


class Signer:
    """A key pair of one PKI's algorithm, able to sign and to describe its public key."""

    def __init__(self, kind):
        self.kind = kind
        if kind == "rsa":
            self.private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            self.public_info = keys.PublicKeyInfo.load(
                self.private.public_key().public_bytes(
                    serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
                )
            )
        else:
            self.private = ec.generate_private_key(ec.BrainpoolP256R1())
            point = self.private.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
            self.public_info = keys.PublicKeyInfo(
                {
                    "algorithm": {"algorithm": "ec", "parameters": explicit_brainpool_p256r1()},
                    "public_key": point,
                }
            )

    @property
    def key_identifier(self):
        return hashlib.sha1(self.public_info["public_key"].contents[1:]).digest()

    @property
    def signature_algorithm(self):
        return {"algorithm": "sha256_rsa" if self.kind == "rsa" else "sha256_ecdsa"}

    def sign(self, message):
        if self.kind == "rsa":
            return self.private.sign(message, padding.PKCS1v15(), hashes.SHA256())
        return self.private.sign(message, ec.ECDSA(hashes.SHA256()))


_explicit_parameters = None


def explicit_brainpool_p256r1():
    """brainpoolP256r1 as SpecifiedECDomain (p, a, b, G, n, h), from the openssl CLI."""
    global _explicit_parameters
    if _explicit_parameters is None:
        der = subprocess.run(
            ["openssl", "ecparam", "-name", "brainpoolP256r1", "-param_enc", "explicit", "-outform", "DER"],
            check=True,
            capture_output=True,
        ).stdout
        _explicit_parameters = keys.ECDomainParameters.load(der)
    return _explicit_parameters


def name(common_name, country="UT"):
    return x509.Name.build(
        {"country_name": country, "organization_name": "emrtd test PKI", "common_name": common_name}
    )


def certificate(subject, subject_key, issuer, issuer_key, serial, not_before, not_after, ca, key_usage=None):
    extensions = [
        {
            "extn_id": "key_usage",
            "critical": True,
            "extn_value": x509.KeyUsage(key_usage or ({"key_cert_sign", "crl_sign"} if ca else {"digital_signature"})),
        },
        {"extn_id": "key_identifier", "critical": False, "extn_value": subject_key.key_identifier},
        {
            "extn_id": "authority_key_identifier",
            "critical": False,
            "extn_value": {"key_identifier": issuer_key.key_identifier},
        },
    ]
    if ca:
        extensions.append(
            {"extn_id": "basic_constraints", "critical": True, "extn_value": {"ca": True, "path_len_constraint": 0}}
        )
    tbs = x509.TbsCertificate(
        {
            "version": "v3",
            "serial_number": serial,
            "signature": issuer_key.signature_algorithm,
            "issuer": issuer,
            "validity": {"not_before": x509.Time({"utc_time": not_before}), "not_after": x509.Time({"utc_time": not_after})},
            "subject": subject,
            "subject_public_key_info": subject_key.public_info,
            "extensions": extensions,
        }
    )
    return x509.Certificate(
        {
            "tbs_certificate": tbs,
            "signature_algorithm": issuer_key.signature_algorithm,
            "signature_value": issuer_key.sign(tbs.dump()),
        }
    )


def pem(cert):
    body = __import__("base64").encodebytes(cert.dump()).decode().replace("\n", "")
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return "-----BEGIN CERTIFICATE-----\n" + "\n".join(lines) + "\n-----END CERTIFICATE-----\n"


def data_groups():
    """DG1 (the 9303-4 specimen MRZ), DG2 (an opaque biometric template) and DG14 (opaque)."""
    mrz = b"P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<L898902C36UTO7408122F1204159ZE184226B<<<<<10"
    return {
        1: tlv([0x61], tlv([0x5F, 0x1F], mrz)),
        2: tlv([0x75], tlv([0x7F, 0x61], bytes(range(256)) * 3)),
        14: tlv([0x6E], tlv([0x31], tlv([0x30], bytes([0x06, 0x03, 0x2A, 0x03, 0x04])))),
    }


def security_object(groups):
    return LDSSecurityObject(
        {
            "version": 0,
            "hash_algorithm": {"algorithm": "sha256"},
            "data_group_hash_values": [
                {"data_group_number": number, "data_group_hash_value": hashlib.sha256(content).digest()}
                for number, content in sorted(groups.items())
            ],
        }
    ).dump()


def sod(dsc, dsc_key, groups, defect):
    """EF.SOD: [APPLICATION 23] { ContentInfo { id-signedData, SignedData } } with one defect."""
    econtent = security_object(groups)
    content_type_attribute = ID_DATA if defect == "wrong-content-type" else LDS_SECURITY_OBJECT
    digested = econtent + b"!" if defect == "wrong-message-digest" else econtent
    by_key_identifier = defect == "valid-ski-sid"
    serial = dsc.serial_number + 1 if defect == "wrong-sid" else dsc.serial_number
    signer = {
        "version": "v3" if by_key_identifier else "v1",
        "sid": cms.SignerIdentifier(
            {"subject_key_identifier": dsc_key.key_identifier}
            if by_key_identifier
            else {"issuer_and_serial_number": {"issuer": dsc.issuer, "serial_number": serial}}
        ),
        "digest_algorithm": {"algorithm": "sha256"},
        "signature_algorithm": dsc_key.signature_algorithm,
        "signature": b"",
    }
    if defect != "valid-no-signed-attributes":
        signer["signed_attrs"] = [
            {"type": "content_type", "values": [content_type_attribute]},
            {"type": "signing_time", "values": [cms.Time({"utc_time": utc(2025, 3, 1)})]},
            {"type": "message_digest", "values": [hashlib.sha256(digested).digest()]},
        ]
    signer_info = cms.SignerInfo(signer)
    if "signed_attrs" in signer:
        # Signed over the DER SET: the [0] IMPLICIT encoding with its tag byte replaced (RFC 5652 §5.4).
        message = b"\x31" + signer_info["signed_attrs"].dump()[1:]
    else:
        message = econtent
    signature = bytearray(dsc_key.sign(message))
    if defect == "bad-signature":
        signature[len(signature) // 2] ^= 0x01
    signer_info["signature"] = bytes(signature)
    signed_data = {
        "version": "v3",
        "digest_algorithms": [{"algorithm": "sha256"}],
        "encap_content_info": {"content_type": LDS_SECURITY_OBJECT, "content": econtent},
        "signer_infos": [signer_info],
    }
    if defect != "valid-dsc-not-in-sod":
        signed_data["certificates"] = [dsc]
    content_info = cms.ContentInfo({"content_type": "signed_data", "content": cms.SignedData(signed_data)})
    return tlv([0x77], content_info.dump())


CASES = [
    "valid",
    "valid-ski-sid",
    "valid-no-signed-attributes",
    "valid-dsc-not-in-sod",
    "valid-via-link",
    "changed-dg",
    "bad-signature",
    "untrusted-csca",
    "unknown-csca",
    "expired-dsc",
    "dsc-before-csca",
    "dsc-without-digital-signature",
    "wrong-sid",
    "wrong-message-digest",
    "wrong-content-type",
    "dg-without-hash",
]


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w" if isinstance(data, str) else "wb") as file:
        file.write(data)


def generate_pki(out, kind):
    csca_name = name("CSCA " + kind)
    csca_key = Signer(kind)
    csca = certificate(csca_name, csca_key, csca_name, csca_key, 1, utc(2020), utc(2040), ca=True)
    write(os.path.join(out, "csca.pem"), pem(csca))

    for case in CASES:
        issuer_name, issuer_key = csca_name, csca_key
        extra_files = {}
        if case == "untrusted-csca":
            issuer_key = Signer(kind)  # same name as the trusted CSCA, another key
        elif case == "unknown-csca":
            issuer_name, issuer_key = name("Rogue CSCA " + kind), Signer(kind)
        elif case == "valid-via-link":
            # The CSCA renewed its key: the trust store holds the old CSCA and the link
            # certificate (new key, signed by the old one); the DSC is signed by the new key.
            new_key = Signer(kind)
            link = certificate(csca_name, new_key, csca_name, csca_key, 2, utc(2024), utc(2040), ca=True)
            extra_files["link.pem"] = pem(link)
            issuer_key = new_key
        not_before, not_after = utc(2024), utc(2035)
        if case == "expired-dsc":
            not_before, not_after = utc(2021), utc(2023)
        elif case == "dsc-before-csca":
            not_before = utc(2019)
        usage = {"non_repudiation"} if case == "dsc-without-digital-signature" else None
        dsc_key = Signer(kind)
        dsc = certificate(
            name("DS " + kind), dsc_key, issuer_name, issuer_key, 0x1000 + CASES.index(case),
            not_before, not_after, ca=False, key_usage=usage,
        )
        if case == "valid-dsc-not-in-sod":
            extra_files["dsc.pem"] = pem(dsc)

        hashed = data_groups()
        files = dict(hashed)
        if case == "changed-dg":
            files[2] = files[2][:-1] + bytes([files[2][-1] ^ 0xFF])
        elif case == "dg-without-hash":
            files[15] = tlv([0x6F], tlv([0x30], b"\x00" * 16))
        case_dir = os.path.join(out, case)
        write(os.path.join(case_dir, "SOD.bin"), sod(dsc, dsc_key, hashed, case))
        for number, content in files.items():
            write(os.path.join(case_dir, "DG%d.bin" % number), content)
        for file_name, content in extra_files.items():
            write(os.path.join(case_dir, file_name), content)


HASHES = {
    "sha1": hashes.SHA1,
    "sha224": hashes.SHA224,
    "sha256": hashes.SHA256,
    "sha384": hashes.SHA384,
    "sha512": hashes.SHA512,
}

NAMED_CURVES = {
    "secp192r1": ec.SECP192R1,
    "secp224r1": ec.SECP224R1,
    "secp256r1": ec.SECP256R1,
    "secp384r1": ec.SECP384R1,
    "secp521r1": ec.SECP521R1,
    "brainpoolp256r1": ec.BrainpoolP256R1,
    "brainpoolp384r1": ec.BrainpoolP384R1,
    "brainpoolp512r1": ec.BrainpoolP512R1,
}
OPENSSL_CURVE_NAMES = {
    "secp192r1": "prime192v1",
    "secp256r1": "prime256v1",
}


class CurveTable:
    """Explicit domain parameters (ICAO 9303-12 asks for them) mapped to cryptography's named
    curves: `cryptography` loads no explicit curve, so the parameters are matched against each
    named curve's, which the openssl CLI prints once."""

    def __init__(self):
        self.by_parameters = None

    @staticmethod
    def key(specified):
        curve = specified["curve"]
        return (
            int.from_bytes(curve["a"].native, "big"),
            int.from_bytes(curve["b"].native, "big"),
            specified["base"].native,
            specified["order"].native,
        )

    def curve(self, specified):
        if self.by_parameters is None:
            self.by_parameters = {}
            for name, curve in NAMED_CURVES.items():
                der = subprocess.run(
                    ["openssl", "ecparam", "-name", OPENSSL_CURVE_NAMES.get(name, name), "-param_enc", "explicit",
                     "-outform", "DER"],
                    check=True, capture_output=True,
                ).stdout
                parameters = keys.ECDomainParameters.load(der)
                self.by_parameters[self.key(parameters.chosen)] = curve
        found = self.by_parameters.get(self.key(specified))
        if found is None:
            raise ValueError("explicit curve parameters of no named curve")
        return found()


CURVES = CurveTable()


def public_key(info):
    """A cryptography public key from an asn1crypto PublicKeyInfo (RSA, EC named or explicit)."""
    algorithm = info["algorithm"]["algorithm"].native
    if algorithm == "rsa":
        numbers = info["public_key"].parsed
        return rsa.RSAPublicNumbers(numbers["public_exponent"].native, numbers["modulus"].native).public_key()
    if algorithm == "ec":
        parameters = info["algorithm"]["parameters"]
        if parameters.name == "named":
            curve = NAMED_CURVES[parameters.chosen.native.lower()]()
        elif parameters.name == "specified":
            curve = CURVES.curve(parameters.chosen)
        else:
            raise ValueError("implicit curve parameters")
        return ec.EllipticCurvePublicKey.from_encoded_point(curve, info["public_key"].native)
    raise ValueError("public key algorithm %s" % algorithm)


def verify_signature(key, algorithm, signature, message, digest_name):
    """Raises InvalidSignature (or ValueError) unless `signature` over `message` holds."""
    kind = algorithm.signature_algo
    try:
        hash_name = algorithm.hash_algo
    except ValueError:
        hash_name = digest_name  # plain rsaEncryption or ecPublicKey: the SignerInfo's digest
    if kind == "rsassa_pkcs1v15":
        key.verify(signature, message, padding.PKCS1v15(), HASHES[hash_name]())
    elif kind == "rsassa_pss":
        parameters = algorithm["parameters"]
        mgf_hash = parameters["mask_gen_algorithm"]["parameters"]["algorithm"].native
        key.verify(
            signature, message,
            padding.PSS(mgf=padding.MGF1(HASHES[mgf_hash]()), salt_length=parameters["salt_length"].native),
            HASHES[parameters["hash_algorithm"]["algorithm"].native](),
        )
    elif kind == "ecdsa":
        key.verify(signature, message, ec.ECDSA(HASHES[hash_name]()))
    else:
        raise ValueError("signature algorithm %s" % kind)


def load_cscas(paths):
    """The trusted CSCAs (DER files or PEM bundles) by subject, loaded once."""
    by_subject = {}
    for path in paths:
        with open(path, "rb") as file:
            data = file.read()
        if data.lstrip().startswith(b"-----BEGIN"):
            blocks = pem_blocks(data)
        else:
            blocks = [data]
        for der in blocks:
            try:
                certificate = x509.Certificate.load(der)
                by_subject.setdefault(certificate.subject.hashable, []).append(certificate)
            except ValueError:
                continue
    return by_subject


def pem_blocks(data):
    import base64

    blocks = []
    for part in data.split(b"-----BEGIN CERTIFICATE-----")[1:]:
        body = part.split(b"-----END CERTIFICATE-----")[0]
        blocks.append(base64.b64decode(b"".join(body.split())))
    return blocks


def verify_dump(folder, cscas):
    """Passive Authentication of one dump folder: signature, DSC by CSCA, data-group hashes."""
    result = {"path": folder, "sodSignatureValid": False, "certificateChainValid": False,
              "dataGroupHashesValid": False, "error": None}
    try:
        with open(os.path.join(folder, "SOD.bin"), "rb") as file:
            sod = file.read()
        outer = core.load(sod)  # [APPLICATION 23] around the ContentInfo
        content_info = cms.ContentInfo.load(outer.contents)
        signed_data = content_info["content"]
        econtent = signed_data["encap_content_info"]["content"].contents
        signer = signed_data["signer_infos"][0]
        digest_name = signer["digest_algorithm"]["algorithm"].native
        sid = signer["sid"]
        dsc = None
        for choice in signed_data["certificates"] or []:
            certificate = choice.chosen
            if sid.name == "issuer_and_serial_number":
                matches = (certificate.serial_number == sid.chosen["serial_number"].native
                           and certificate.issuer.hashable == sid.chosen["issuer"].hashable)
            else:
                matches = certificate.key_identifier == sid.chosen.native
            if matches:
                dsc = certificate
                break
        if dsc is None:
            raise ValueError("no certificate in EF.SOD matches the SignerInfo")
        attributes = signer["signed_attrs"]
        if attributes:
            digests = [a["values"][0].native for a in attributes if a["type"].native == "message_digest"]
            if digests != [hashlib.new(digest_name, econtent).digest()]:
                raise ValueError("messageDigest is not the eContent's hash")
            signed = b"\x31" + attributes.dump()[1:]
        else:
            signed = econtent
        try:
            verify_signature(public_key(dsc.public_key), signer["signature_algorithm"], signer["signature"].native,
                             signed, digest_name)
            result["sodSignatureValid"] = True
        except InvalidSignature:
            pass
        tbs = dsc["tbs_certificate"].dump()
        for csca in cscas.get(dsc.issuer.hashable, []):
            try:
                verify_signature(public_key(csca.public_key), dsc["signature_algorithm"],
                                 dsc["signature_value"].native, tbs, digest_name)
                result["certificateChainValid"] = True
                break
            except (InvalidSignature, ValueError, TypeError):
                continue  # another key of the same name (a renewed CSCA, another algorithm)
        security_object = LDSSecurityObject.load(econtent)
        hash_name = security_object["hash_algorithm"]["algorithm"].native
        expected = {h["data_group_number"].native: h["data_group_hash_value"].native
                    for h in security_object["data_group_hash_values"]}
        valid = True
        for number in range(1, 17):
            path = os.path.join(folder, "DG%d.bin" % number)
            if os.path.exists(path):
                with open(path, "rb") as file:
                    valid = valid and expected.get(number) == hashlib.new(hash_name, file.read()).digest()
        result["dataGroupHashesValid"] = valid
    except (OSError, ValueError, KeyError, TypeError) as error:
        result["error"] = str(error)
    return result


def verify_main(arguments):
    """`verify [--csca FILE]... [--list FILE|-] [DUMP...]`: the reference of `emrtd-bench pa`."""
    csca_paths, folders = [], []
    iterator = iter(arguments)
    for argument in iterator:
        if argument == "--csca":
            csca_paths.append(next(iterator))
        elif argument == "--list":
            source = next(iterator)
            with (sys.stdin if source == "-" else open(source)) as lines:
                folders += [line.strip() for line in lines if line.strip()]
        else:
            folders.append(argument)
    start = time.perf_counter()
    cscas = load_cscas(csca_paths)
    for folder in folders:
        print(json.dumps(verify_dump(folder, cscas)))
    print(json.dumps({"documents": len(folders), "seconds": time.perf_counter() - start}))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "verify":
        verify_main(sys.argv[2:])
        return
    out = sys.argv[1] if len(sys.argv) > 1 else "Tests/Fixtures/CMS/pa-faults"
    for kind in ("rsa", "ecdsa"):
        generate_pki(os.path.join(out, kind), kind)
    write(os.path.join(out, "README.md"), README)


README = """# Passive Authentication fault fixtures

Generated by `Tools/make-pa-fixtures.py` (Python `cryptography` + `asn1crypto` + the openssl
CLI, none of emrtd's code). Do not edit by hand; regenerate instead.

`rsa/` (RSA-2048, PKCS#1 v1.5 SHA-256) and `ecdsa/` (ECDSA SHA-256 on brainpoolP256r1 with
explicit domain parameters) each hold `csca.pem`, the trusted CSCA (2020–2040), and one folder per
case with `SOD.bin` and the data groups `DG1.bin`, `DG2.bin`, `DG14.bin`. DSCs are valid
2024–2035; the tests check at %s.

| case | defect | expected |
|---|---|---|
| valid | none | authenticated |
| valid-ski-sid | none; SignerInfo.sid is a subjectKeyIdentifier | authenticated |
| valid-no-signed-attributes | none; signature over the eContent | authenticated |
| valid-dsc-not-in-sod | none; SignedData has no certificates, `dsc.pem` goes in the trust store | authenticated |
| valid-via-link | none; DSC signed by a renewed CSCA key, trust store = csca.pem + `link.pem` | authenticated |
| changed-dg | DG2 differs from its hash | denied, DG2 invalid |
| bad-signature | one bit of the SOD signature flipped | denied, SOD signature invalid |
| untrusted-csca | DSC signed by a key claiming the trusted CSCA's name | denied, chain invalid |
| unknown-csca | DSC issued by a CSCA the trust store does not know | authorityCertificatesNotProvided |
| expired-dsc | DSC valid 2021–2023 | denied, chain invalid |
| dsc-before-csca | DSC notBefore (2019) before the CSCA's (2020) | denied, chain invalid |
| dsc-without-digital-signature | DSC key usage is nonRepudiation only | denied, chain invalid |
| wrong-sid | SignerInfo names another serial number | denied, SOD signature invalid |
| wrong-message-digest | messageDigest attribute is not the eContent's hash | denied, SOD signature invalid |
| wrong-content-type | contentType attribute is id-data, eContentType is ldsSecurityObject | denied, SOD signature invalid |
| dg-without-hash | DG15.bin read but not hashed in the SOD | denied, DG15 invalid |
""" % CHECK_TIME


if __name__ == "__main__":
    main()
