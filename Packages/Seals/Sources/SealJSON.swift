import ASN1
import CMS
import JSON

// The JSON forms, in the document JSON's conventions (Packages/Output/README.md): lowerCamel
// keys, absent optionals as null, bytes as base64, dates as ISO 8601.

extension Seal: JSONRepresentable {
    public var json: JSONValue {
        switch self {
        case .vds(let seal): seal.json
        case .nonConstrained(let seal): seal.json
        case .idb(let seal): seal.json
        }
    }
}

extension VisibleDigitalSeal: JSONRepresentable {
    public var json: JSONValue {
        [
            "kind": "vds", "header": header.json, "documentType": .string(documentTypeName),
            "features": .array(features), "signature": .optional(signature),
        ]
    }
}

extension SealHeader: JSONRepresentable {
    public var json: JSONValue {
        [
            "version": .integer(version), "issuingCountry": .string(issuingCountry),
            "signerIdentifier": .string(signerIdentifier), "certificateReference": .string(certificateReference),
            "issuingDate": .string(issuingDate.isoDay), "signatureDate": .string(signatureDate.isoDay),
            "documentFeatureDefinitionReference": .integer(Int(featureDefinitionReference)),
            "documentTypeCategory": .integer(Int(documentTypeCategory)),
        ]
    }
}

extension SealFeature: JSONRepresentable {
    public var json: JSONValue {
        let value: JSONValue
        switch self.value {
        case .mrz(let lines): value = .array(lines.map(JSONValue.string))
        case .text(let text): value = .string(text)
        case .integer(let number): value = .integer(number)
        case .duration(let days, let months, let years):
            value = ["days": .integer(days), "months": .integer(months), "years": .integer(years)]
        case .bytes(let bytes): value = .bytes(bytes)
        case .features(let features): value = .array(features)
        }
        return ["tag": .integer(Int(tag)), "name": .optional(name), "value": value]
    }
}

extension VisibleDigitalSealNonConstrained: JSONRepresentable {
    public var json: JSONValue {
        [
            "kind": "vdsNC", "type": .string(type), "version": .integer(version),
            "issuingCountry": .string(issuingCountry), "signatureAlgorithm": .string(algorithm), "data": data,
            "signerCertificate": CertificateInfo(signerCertificate).json, "signature": .bytes(signature),
        ]
    }
}

extension SealVerdict: JSONRepresentable {
    public var json: JSONValue {
        [
            "status": .string(status.rawValue), "signatureValid": .bool(signatureValid),
            "certificateChainValid": .bool(certificateChainValid),
            "signatureAlgorithm": .optional(signatureAlgorithm),
            "signerCertificate": .optional(signerCertificate.map(CertificateInfo.init)),
            "countrySigningCertificate": .optional(countrySigningCertificate.map(CertificateInfo.init)),
            "checkTime": .string(UTCDateTime(checkTime).iso8601),
            "errors": .array(errors.map { .string($0.description) }),
        ]
    }
}

extension IDBSeal: JSONRepresentable {
    public var json: JSONValue {
        [
            "kind": "idb", "issuingCountry": .string(issuingCountry),
            "signatureAlgorithm": .optional(signatureAlgorithm),
            "certificateReference": .optional(certificateReference.map { Hex.encode($0) }),
            "signatureDate": .optional(signatureDate), "features": .array(features),
            "signerCertificate": .optional(signerCertificate), "signature": .optional(signature),
        ]
    }
}
