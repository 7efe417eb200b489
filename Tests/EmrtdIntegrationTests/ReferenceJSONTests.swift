import ASN1
import ChipSimulator
import CryptoPrimitives
import Foundation
import JSON
import LDS
import MRZ
import Testing

@testable import Emrtd

/// The JSON contract: the reference model's tables (`../shared/reference/`), written here as the
/// keys of each type with the shape of their values, walked against the JSON of a rich read of
/// the simulator (every data group the reader models present), of the three MRZ layouts, of a
/// read error and of a read outcome. A renamed, dropped or re-encoded key fails; keys this
/// project adds are allowed. Every type of the tables must be met with a value at least once,
/// so a model that silently stops being written fails too.
@Suite struct ReferenceJSONTests {
    /// What a key's value must be.
    indirect enum Shape: Sendable {
        case string
        case bool
        case number
        /// Standard base64, padded.
        case bytes
        /// Upper-case hexadecimal.
        case hex
        /// `YYYY-MM-DDTHH:MM:SSZ`.
        case iso8601
        case oneOf([String])
        case type(String)
        case list(Shape)
        case optional(Shape)
    }

    static let elementaryFileIds =
        ["com", "sod"] + (1...16).filter { $0 != 6 }.map { "dg\($0)" }
    static let imageFormats = ["jpeg", "jpeg2000", "png", "wsq", "unknown"]
    static let chipStatus = ["authenticated", "denied", "notSupported"]
    static let chipProtocol = ["paceChipAuthenticationMapping", "chipAuthentication", "activeAuthentication"]
    static let dataStatus = ["authenticated", "denied", "authorityCertificatesNotProvided"]
    static let paceMapping = ["genericMapping", "integratedMapping", "chipAuthenticationMapping"]

    /// The reference's tables: type → key → shape.
    static let types: [String: [(String, Shape)]] = [
        "TravelDocument": [
            ("ldsMasterFile", .type("LdsMasterFile")), ("ldsVersion", .string),
            ("unicodeVersion", .optional(.string)), ("accessControlProtocolUsed", .oneOf(["bac", "pace"])),
            ("paceMapping", .optional(.oneOf(paceMapping))), ("authenticationStatus", .type("AuthenticationStatus")),
            ("machineReadableZoneInformation", .type("MachineReadableZoneInformation")),
            ("encodedIdentificationFeaturesFace", .type("EncodedIdentificationFeaturesFace")),
            ("encodedIdentificationFeaturesFinger", .optional(.type("EncodedIdentificationFeatures"))),
            ("encodedIdentificationFeaturesIris", .optional(.type("EncodedIdentificationFeatures"))),
            ("displayedPortrait", .optional(.type("DisplayedPortrait"))),
            ("displayedSignatureOrUsualMark", .optional(.type("DisplayedSignatureOrUsualMark"))),
            ("additionalPersonalDetails", .optional(.type("AdditionalPersonalDetails"))),
            ("additionalDocumentDetails", .optional(.type("AdditionalDocumentDetails"))),
            ("optionalDetails", .optional(.type("OptionalDetails"))),
            ("securityOptions", .optional(.type("SecurityOptions"))),
            ("activeAuthenticationPublicKeyInfo", .optional(.type("PublicKeyInfo"))),
            ("personsToNotify", .optional(.type("PersonsToNotify"))), ("warnings", .list(.string)),
            ("debugInfo", .type("DebugInfo")),
        ],
        "LdsMasterFile": [
            ("lds1EmrtdApplication", .type("Lds1EmrtdApplication")), ("cardAccess", .optional(.bytes)),
            ("cardSecurity", .optional(.bytes)),
        ],
        "Lds1EmrtdApplication": elementaryFileIds.map { id in
            (
                id,
                ["com", "sod", "dg1", "dg2"].contains(id) ? .type("ElementaryFile") : .optional(.type("ElementaryFile"))
            )
        },
        "ElementaryFile": [("id", .oneOf(elementaryFileIds)), ("bytes", .optional(.bytes))],
        "DocumentImage": [
            ("format", .oneOf(imageFormats)), ("size", .type("ImageSize")), ("bytes", .bytes),
            ("png", .optional(.bytes)),
        ],
        "ImageSize": [("width", .number), ("height", .number)],
        "BiometricRecord": [
            ("biometricType", .optional(.number)), ("biometricSubtype", .optional(.number)),
            ("formatOwner", .optional(.number)), ("formatType", .optional(.number)),
            ("images", .list(.type("DocumentImage"))), ("data", .bytes),
        ],
        "EncodedIdentificationFeaturesFace": [
            ("faceImage", .optional(.type("DocumentImage"))), ("records", .list(.type("BiometricRecord"))),
        ],
        "EncodedIdentificationFeatures": [("records", .list(.type("BiometricRecord")))],
        "DisplayedPortrait": [("displayedPortraitImage", .optional(.type("DocumentImage")))],
        "DisplayedSignatureOrUsualMark": [("displayedSignatureOrUsualMarkImage", .optional(.type("DocumentImage")))],
        "AdditionalPersonalDetails": [
            ("nameOfHolder", .optional(.type("NameOfHolder"))), ("otherNames", .list(.string)),
            ("personalNumber", .optional(.string)), ("fullDateOfBirth", .optional(.string)),
            ("placeOfBirth", .optional(.list(.string))), ("address", .optional(.list(.string))),
            ("telephone", .optional(.string)), ("profession", .optional(.string)), ("title", .optional(.string)),
            ("personalSummary", .optional(.string)), ("proofOfCitizenship", .optional(.type("DocumentImage"))),
            ("otherValidTravelDocumentNumbers", .optional(.list(.string))),
            ("custodyInformation", .optional(.string)),
        ],
        "NameOfHolder": [("primaryIdentifier", .optional(.string)), ("secondaryIdentifier", .optional(.string))],
        "AdditionalDocumentDetails": [
            ("issuingAuthority", .optional(.string)), ("dateOfIssue", .optional(.string)),
            ("otherPersonDetails", .optional(.list(.string))), ("endorsementsOrObservations", .optional(.string)),
            ("taxOrExitRequirements", .optional(.string)), ("imageOfFront", .optional(.type("DocumentImage"))),
            ("imageOfRear", .optional(.type("DocumentImage"))), ("personalizationTime", .optional(.string)),
            ("personalizationDeviceSerialNumber", .optional(.string)),
        ],
        "OptionalDetails": [("content", .bytes), ("fields", .list(.type("TagValue")))],
        "TagValue": [("tag", .number), ("value", .bytes)],
        "PersonsToNotify": [("persons", .list(.type("PersonToNotify")))],
        "PersonToNotify": [
            ("dateRecorded", .optional(.string)), ("name", .optional(.string)), ("telephone", .optional(.string)),
            ("address", .optional(.string)),
        ],
        "SecurityOptions": [("securityInfos", .list(.type("SecurityInfo")))],
        "SecurityInfo": [
            ("protocol", .string), ("name", .string), ("version", .optional(.number)), ("keyId", .optional(.number)),
            ("parameterId", .optional(.number)),
        ],
        "PublicKeyInfo": [
            ("algorithm", .oneOf(["RSA", "EC", "DH"])), ("keySize", .number), ("curve", .optional(.string)),
            ("der", .bytes),
        ],
        "AuthenticationStatus": [
            ("data", .type("DataAuthenticationStatus")), ("chip", .type("ChipAuthenticationStatus")),
        ],
        "DataAuthenticationStatus": [
            ("status", .oneOf(dataStatus)), ("protocol", .oneOf(["passiveAuthentication"])),
            ("sodSignatureValid", .bool), ("certificateChainValid", .bool), ("dataGroupHashesValid", .bool),
            ("dataGroupHashes", .list(.type("DataGroupHash"))), ("hashAlgorithm", .optional(.string)),
            ("signatureAlgorithm", .optional(.string)),
            ("documentSignerCertificate", .optional(.type("CertificateInfo"))),
            ("countrySigningCertificate", .optional(.type("CertificateInfo"))),
            ("issuingCountry", .optional(.string)), ("errors", .list(.string)),
        ],
        "DataGroupHash": [("dataGroupNumber", .number), ("status", .oneOf(["valid", "invalid", "notRead"]))],
        "ChipAuthenticationStatus": [
            ("status", .oneOf(chipStatus)), ("protocol", .optional(.oneOf(chipProtocol))),
            ("activeAuthentication", .optional(.oneOf(chipStatus))),
            ("activeAuthenticationResponse", .optional(.bytes)),
        ],
        "CertificateInfo": [
            ("subject", .string), ("issuer", .string), ("country", .optional(.string)),
            ("organization", .optional(.string)), ("commonName", .optional(.string)), ("serialNumber", .hex),
            ("notBefore", .iso8601), ("notAfter", .iso8601), ("signatureAlgorithm", .string),
            ("publicKeyAlgorithm", .string), ("publicKeySize", .number), ("subjectKeyIdentifier", .optional(.hex)),
            ("authorityKeyIdentifier", .optional(.hex)), ("sha256Fingerprint", .hex), ("der", .bytes),
        ],
        "MachineReadableZoneInformation": [
            ("machineReadableZone", .type("MachineReadableZone")), ("fields", .type("MrzFields")),
        ],
        "MrzFields": [
            ("documentCode", .string), ("issuingState", .string), ("documentNumber", .string),
            ("primaryIdentifier", .optional(.string)), ("secondaryIdentifier", .optional(.string)),
            ("nationality", .string), ("dateOfBirth", .string), ("sex", .string), ("dateOfExpiry", .string),
            ("optionalData", .optional(.string)), ("checkDigitsValid", .bool),
        ],
        "MachineReadableZone": [
            ("lines", .list(.string)), ("travelDocumentType", .oneOf(["td1", "td2", "td3"])),
            ("td1", .optional(.type("Td1MachineReadableZone"))), ("td2", .optional(.type("Td2MachineReadableZone"))),
            ("td3", .optional(.type("Td3MachineReadableZone"))),
        ],
        "Td1MachineReadableZone": layout + [
            ("documentNumber", .type("ElementWithCheckDigit")), ("optionalData", .list(.type("Element"))),
            ("compositeCheckDigit", .type("CheckDigit")),
        ],
        "Td2MachineReadableZone": layout + [
            ("documentNumber", .type("ElementWithCheckDigit")), ("optionalData", .optional(.type("Element"))),
            ("compositeCheckDigit", .optional(.type("CheckDigit"))),
        ],
        "Td3MachineReadableZone": layout + [
            ("passportNumber", .type("ElementWithCheckDigit")),
            ("personalNumberOrOtherOptionalData", .type("ElementWithCheckDigit")),
            ("compositeCheckDigit", .optional(.type("CheckDigit"))),
        ],
        "Element": element,
        "ElementWithCheckDigit": element + [("checkDigit", .type("CheckDigit"))],
        "DateElementWithCheckDigit": element + [("checkDigit", .type("CheckDigit")), ("date", .type("MrzDate"))],
        "NameElement": [
            ("primaryIdentifier", .optional(.type("Element"))), ("secondaryIdentifier", .optional(.type("Element"))),
        ],
        "CheckDigit": [("isValid", .bool), ("value", .string)],
        "MrzDate": [("year", .optional(.number)), ("month", .optional(.number)), ("day", .optional(.number))],
        "StringPosition": [("lineIndex", .number), ("startIndex", .number), ("endIndex", .number)],
        "DebugInfo": [("events", .list(.type("DebugEvent")))],
        "DebugEvent": [("timestampMillis", .number), ("message", .string)],
        "ReadError": [
            (
                "code",
                .oneOf([
                    "invalid_argument", "access_control", "chip_authentication", "not_connected", "read", "cancelled",
                    "nfc_unavailable",
                ])
            ),
            ("message", .string), ("reason", .optional(.string)),
            ("kind", .optional(.oneOf(["readingDataGroups", "parseMasterFile", "unknown"]))),
            ("debugInfo", .optional(.type("DebugInfo"))),
        ],
        "ReadOutcome": [
            ("resultStatus", .oneOf(["success", "failure"])),
            (
                "resultError",
                .optional(
                    .oneOf([
                        "invalid_argument", "access_control", "chip_authentication", "connection",
                        "reading_data_groups", "parse_master_file", "unknown", "cancelled", "nfc_unavailable",
                    ]))
            ),
            ("accessControlProtocol", .optional(.oneOf(["bac", "pace"]))),
            ("paceMapping", .optional(.oneOf(paceMapping))),
            ("chipAuthenticationStatus", .optional(.oneOf(chipStatus))),
            ("chipAuthenticationProtocol", .optional(.oneOf(chipProtocol))),
            ("dataAuthenticationStatus", .optional(.oneOf(dataStatus))), ("mrzIssuingState", .optional(.string)),
            ("mrzDocumentCode", .optional(.string)), ("dataGroups", .list(.oneOf(elementaryFileIds))),
            ("durationMs", .number),
        ],
    ]

    static let element: [(String, Shape)] = [
        ("value", .string), ("raw", .string), ("positions", .list(.type("StringPosition"))),
    ]
    static let layout: [(String, Shape)] = [
        ("documentCode", .type("Element")), ("issuingStateOrOrganization", .type("Element")),
        ("name", .type("NameElement")), ("nationality", .type("Element")),
        ("dateOfBirth", .type("DateElementWithCheckDigit")), ("sex", .type("Element")),
        ("dateOfExpiry", .type("DateElementWithCheckDigit")),
    ]

    /// Walks values against the tables, recording what does not match and which types were met.
    final class Walker {
        var problems: [String] = []
        var met: Set<String> = []

        func check(_ value: JSONValue, as typeName: String, at path: String) {
            guard let keys = ReferenceJSONTests.types[typeName] else {
                problems.append("\(path): no table for \(typeName)")
                return
            }
            guard case .object(let members) = value else {
                problems.append("\(path): \(typeName) is not an object")
                return
            }
            met.insert(typeName)
            for (key, shape) in keys {
                guard let member = members.first(where: { $0.key == key }) else {
                    problems.append("\(path).\(key): missing (\(typeName))")
                    continue
                }
                check(member.value, shape, at: "\(path).\(key)")
            }
        }

        func check(_ value: JSONValue, _ shape: Shape, at path: String) {
            switch (shape, value) {
            case (.optional, .null): return
            case (.optional(let inner), _): check(value, inner, at: path)
            case (.string, .string), (.bool, .bool), (.number, .integer): return
            case (.bytes, .string(let text)):
                if Data(base64Encoded: text) == nil { problems.append("\(path): not base64: \(text.prefix(40))") }
            case (.hex, .string(let text)):
                if text.isEmpty || !text.allSatisfy({ "0123456789ABCDEF".contains($0) }) {
                    problems.append("\(path): not upper-case hex: \(text)")
                }
            case (.iso8601, .string(let text)):
                if text.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$"#, options: .regularExpression) == nil {
                    problems.append("\(path): not ISO 8601 UTC: \(text)")
                }
            case (.oneOf(let names), .string(let text)):
                if !names.contains(text) { problems.append("\(path): \(text) is not one of \(names)") }
            case (.type(let name), _): check(value, as: name, at: path)
            case (.list(let inner), .array(let elements)):
                for (index, element) in elements.enumerated() { check(element, inner, at: "\(path)[\(index)]") }
            default: problems.append("\(path): \(value.serialized().prefix(60)) is not \(shape)")
            }
        }
    }

    /// A rich read with debug on, plus the models the simulator does not serve yet (DG3 with its
    /// empty record list released, DG14 with PACE, CA and AA infos, DG15 an RSA key), parsed by
    /// the same parsers the reader uses.
    static func richDocument() throws -> TravelDocument {
        let specimen = try Specimen.generate(rich: true)
        var document = try OrchestrationTests.reader(trusting: specimen, debug: true).read(
            transport: OrchestrationTests.openChip(specimen.files), accessKey: OrchestrationTests.accessKey)
        if let dg3 = specimen.files[dataGroup: 3] {
            document.encodedIdentificationFeaturesFinger = try EncodedIdentificationFeatures(dg3, kind: .dg3)
        }
        let dg14 = DER.tlv(
            ASN1Tag(0x6E),
            DER.set([
                DER.sequence([DER.objectIdentifier("0.4.0.127.0.7.2.2.4.2.2"), DER.integer(2), DER.integer(13)]),
                DER.sequence([DER.objectIdentifier("0.4.0.127.0.7.2.2.3.2.2"), DER.integer(1), DER.integer(7)]),
                DER.sequence([
                    DER.objectIdentifier("2.23.136.1.1.5"), DER.integer(1),
                    DER.objectIdentifier("0.4.0.127.0.7.1.1.4.1.3"),
                ]),
            ]))
        document.securityOptions = try SecurityOptions(dg14, kind: .dg14)
        let key = try RSAKeyPair.generate(bits: 1024).subjectPublicKeyInfo()
        document.activeAuthenticationPublicKeyInfo = try ActiveAuthenticationPublicKey(DER.tlv(ASN1Tag(0x6F), key))
            .publicKey
        return document
    }

    @Test func everyTypeOfTheReferenceHasItsKeys() throws {
        let walker = Walker()
        let document = try Self.richDocument()
        let parsed = try JSONValue.parse(travelDocumentToJson(document: document))
        walker.check(parsed, as: "TravelDocument", at: "document")
        for lines in [
            ["I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"],
            ["I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<", "D231458907UTO7408122F1204159<<<<<<<6"],
        ] {
            let zone = try parseMrz(lines: lines)
            walker.check(
                try JSONValue.parse(machineReadableZoneToJson(mrz: zone)), as: "MachineReadableZone", at: "mrz")
        }
        let error = ReadError(.read(.readingDataGroups), "DG1 could not be read")
        walker.check(try JSONValue.parse(readErrorToJson(error: error)), as: "ReadError", at: "error")
        let outcome = readOutcome(document: document, error: nil, durationMs: 1200)
        walker.check(try JSONValue.parse(readOutcomeToJson(outcome: outcome)), as: "ReadOutcome", at: "outcome")
        #expect(walker.problems.isEmpty, "\(walker.problems.joined(separator: "\n"))")
        #expect(
            Set(Self.types.keys).subtracting(walker.met).isEmpty,
            "never met: \(Set(Self.types.keys).subtracting(walker.met))")
    }

    static func first(_ value: JSONValue?) -> JSONValue? {
        guard case .array(let elements) = value else { return nil }
        return elements.first
    }

    /// Values the tables fix beyond shapes: the specimen's own fields, as the reference words them.
    @Test func valuesFollowTheReference() throws {
        let document = try Self.richDocument()
        let json = try JSONValue.parse(travelDocumentToJson(document: document))
        #expect(json["ldsVersion"] == "1.8" && json["unicodeVersion"] == "4.0.0")
        let fields = json["machineReadableZoneInformation"]?["fields"]
        #expect(fields?["issuingState"] == "UTO" && fields?["primaryIdentifier"] == "ERIKSSON")
        #expect(fields?["secondaryIdentifier"] == "ANNA MARIA" && fields?["optionalData"] == "ZE184226B")
        #expect(fields?["checkDigitsValid"] == true && fields?["sex"] == "F")
        let td3 = json["machineReadableZoneInformation"]?["machineReadableZone"]?["td3"]
        #expect(td3?["passportNumber"]?["value"] == "L898902C")
        #expect(td3?["name"]?["secondaryIdentifier"]?["raw"] == "ANNA<MARIA<<<<<<<<<<<<<<<<<<<")
        #expect(td3?["dateOfBirth"]?["date"]?["year"] == 69)
        let holder = json["additionalPersonalDetails"]
        #expect(holder?["nameOfHolder"]?["secondaryIdentifier"] == "ANNA MARIA")
        #expect(holder?["fullDateOfBirth"] == "19690806" && holder?["address"] == ["17 EXAMPLE STREET", "UTOPIA"])
        #expect(json["additionalDocumentDetails"]?["dateOfIssue"] == "19890624")
        #expect(json["additionalDocumentDetails"]?["personalizationTime"] == "19890601120000")
        #expect(holder?["fullDateOfBirthISO8601"] == "1969-08-06")
        #expect(json["additionalDocumentDetails"]?["personalizationTimeISO8601"] == "1989-06-01T12:00:00")
        #expect(json["additionalDocumentDetails"]?["dateOfIssueEncoding"] == "bcd")
        let application = json["ldsMasterFile"]?["lds1EmrtdApplication"]
        #expect(application?["dg3"] == ["id": "dg3", "bytes": .null])
        #expect(application?["dg4"] == .null && application?["dg6"] == nil)
        let face = json["encodedIdentificationFeaturesFace"]
        #expect(face?["faceImage"]?["format"] == "jpeg" && Self.first(face?["records"])?["biometricType"] == 2)
        let signer = json["authenticationStatus"]?["data"]?["documentSignerCertificate"]
        let expected = try #require(document.authenticationStatus.data.documentSignerCertificate?.der)
        #expect(signer?["sha256Fingerprint"] == .string(Hex.encode(HashAlgorithm.sha256.hash(expected))))
        guard case .array(let infos) = json["securityOptions"]?["securityInfos"] else {
            Issue.record("no securityInfos")
            return
        }
        let byName = Dictionary(
            infos.compactMap { info -> (String, JSONValue)? in
                guard case .string(let name) = info["name"] else { return nil }
                return (name, info)
            }
        ) { $1 }
        #expect(byName["id-CA-ECDH-AES-CBC-CMAC-128"]?["keyId"] == 7, "\(byName.keys)")
        #expect(byName["id-PACE-ECDH-GM-AES-CBC-CMAC-128"]?["parameterId"] == 13)
        #expect(infos.contains { $0["protocol"] == "2.23.136.1.1.5" && $0["version"] == 1 })
        #expect(json["activeAuthenticationPublicKeyInfo"]?["algorithm"] == "RSA")
        #expect(json["activeAuthenticationPublicKeyInfo"]?["keySize"] == 1024)
    }
}
