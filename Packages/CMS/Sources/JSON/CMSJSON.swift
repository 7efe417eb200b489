import Foundation
import JSON

// The JSON forms of this package's verdicts and certificate descriptions, which `Emrtd` folds
// into its own document and the CLI prints. Shape rules: see `JSONValue`.

extension CertificateInfo: JSONRepresentable {
    public var json: JSONValue {
        [
            "subject": .string(subject), "issuer": .string(issuer), "country": .optional(country),
            "organization": .optional(organization), "commonName": .optional(commonName),
            "serialNumber": .string(serialNumber), "notBefore": .string(notBefore),
            "notAfter": .string(notAfter), "signatureAlgorithm": .string(signatureAlgorithm),
            "publicKeyAlgorithm": .string(publicKeyAlgorithm),
            "publicKeySize": .integer(Int(publicKeySize)),
            "subjectKeyIdentifier": .optional(subjectKeyIdentifier),
            "authorityKeyIdentifier": .optional(authorityKeyIdentifier),
            "sha256Fingerprint": .string(sha256Fingerprint), "der": .bytes([UInt8](der)),
        ]
    }
}

extension DataAuthenticationStatus: JSONRepresentable {
    public var json: JSONValue {
        [
            "status": .string(status.rawValue), "protocol": .string(`protocol`.rawValue),
            "sodSignatureValid": .bool(sodSignatureValid),
            "certificateChainValid": .bool(certificateChainValid),
            "dataGroupHashesValid": .bool(dataGroupHashesValid),
            "dataGroupHashes": .array(dataGroupHashes), "dataGroupsChecked": .integer(dataGroupsChecked),
            "hashAlgorithm": .optional(hashAlgorithm), "signatureAlgorithm": .optional(signatureAlgorithm),
            "documentSignerCertificate": .optional(documentSignerCertificate),
            "countrySigningCertificate": .optional(countrySigningCertificate),
            "issuingCountry": .optional(issuingCountry),
            "errors": .array(errors.map(JSONValue.string)),
        ]
    }
}

extension DataGroupHash: JSONRepresentable {
    public var json: JSONValue {
        [
            "dataGroupNumber": .integer(Int(dataGroupNumber)), "status": .string(status.rawValue),
            "expectedHash": .optional(expectedHash), "computedHash": .optional(computedHash),
        ]
    }
}

/// EF.SOD as `emrtd parse` shows it: the LDSSecurityObject, what signed it, and its certificates
/// (whether the signature holds is Passive Authentication's verdict, not this).
extension DocumentSecurityObject: JSONRepresentable {
    public var json: JSONValue {
        [
            "eContentType": .string(signedData.contentType.name ?? signedData.contentType.dotted),
            "version": .integer(version), "hashAlgorithm": .string(hashAlgorithm.displayName),
            "dataGroupHashes": .array(
                dataGroupHashes.sorted { $0.key < $1.key }.map {
                    ["dataGroupNumber": .integer($0.key), "hash": .bytes($0.value)]
                }
            ),
            "ldsVersion": .optional(ldsVersion), "unicodeVersion": .optional(unicodeVersion),
            "signerInfos": .array(signedData.signerInfos.map(\.json)),
            "certificates": .array(signedData.certificates.map { CertificateInfo($0).json }),
        ]
    }
}

extension SignerInfo: JSONRepresentable {
    public var json: JSONValue {
        [
            "digestAlgorithm": .string(digestAlgorithm.displayName),
            "signatureAlgorithm": .string(signatureAlgorithm?.description ?? signatureAlgorithmIdentifier.dotted),
            "signingTime": .optional(signedAttributes?.signingTime.map(iso8601)),
        ]
    }
}
