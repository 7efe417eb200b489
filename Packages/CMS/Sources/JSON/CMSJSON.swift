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
            "publicKeySize": .optional(publicKeySize),
            "subjectKeyIdentifier": .optional(subjectKeyIdentifier),
            "authorityKeyIdentifier": .optional(authorityKeyIdentifier),
            "fingerprintSha256": .bytes(fingerprintSha256), "der": .bytes(der),
        ]
    }
}

extension DataAuthenticationStatus: JSONRepresentable {
    public var json: JSONValue {
        [
            "status": .string(status.rawValue), "sodSignatureValid": .bool(sodSignatureValid),
            "certificateChainValid": .bool(certificateChainValid),
            "dataGroupHashesValid": .bool(dataGroupHashesValid),
            "dataGroupHashes": .array(dataGroupHashes),
            "hashAlgorithm": .optional(hashAlgorithm), "signatureAlgorithm": .optional(signatureAlgorithm),
            "documentSignerCertificate": .optional(documentSignerCertificate),
            "countrySigningCertificate": .optional(countrySigningCertificate),
            "issuingCountry": .optional(issuingCountry),
            "errors": .array(errors.map { .string($0.description) }),
        ]
    }
}

extension DataGroupHashResult: JSONRepresentable {
    public var json: JSONValue {
        [
            "dataGroup": .integer(dataGroup), "status": .string(status.rawValue),
            "expectedHash": .optional(expectedHash), "computedHash": .optional(computedHash),
        ]
    }
}
