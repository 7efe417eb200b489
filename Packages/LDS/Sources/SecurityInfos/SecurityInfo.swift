import ASN1
import ICAO
import JSON

/// One entry of a SecurityInfos set (BSI TR-03110-3 §A.1, ICAO 9303-11 §9.2). Entries of an
/// unknown protocol, and known ones that do not parse, are kept as `.unknown`, never fatal.
///
/// ```
/// SecurityInfo ::= SEQUENCE { protocol OBJECT IDENTIFIER, requiredData ANY, optionalData ANY OPTIONAL }
/// ```
public enum SecurityInfo: Sendable, Equatable, JSONRepresentable {
    case pace(PACEInfo)
    case paceDomainParameters(DomainParameterInfo)
    case chipAuthentication(ChipAuthenticationInfo)
    case chipAuthenticationDomainParameters(DomainParameterInfo)
    case chipAuthenticationPublicKey(ChipAuthenticationPublicKeyInfo)
    case terminalAuthentication(TerminalAuthenticationInfo)
    case activeAuthentication(ActiveAuthenticationInfo)
    case unknown(UnknownSecurityInfo)

    private static let pacePrefix = ASN1ObjectIdentifier.pace
    private static let chipAuthenticationPrefix = ASN1ObjectIdentifier.chipAuthentication
    private static let publicKeyPrefix = ASN1ObjectIdentifier.chipAuthenticationPublicKey
    private static let terminalAuthentication = ASN1ObjectIdentifier.terminalAuthentication
    private static let activeAuthentication = ASN1ObjectIdentifier.activeAuthentication

    /// The key agreement an id-PACE, id-CA or id-PK OID names (its tenth arc).
    static func keyAgreement(of identifier: ASN1ObjectIdentifier) -> KeyAgreement? {
        if identifier.hasPrefix(pacePrefix) {
            return identifier.arcs.dropFirst(9).first.flatMap(PACEProtocol.family(arc:))?.keyAgreement
        }
        return ChipAuthenticationProtocol.keyAgreement(of: identifier)
    }

    /// Classifies one SecurityInfo; `warning` says why a known protocol was kept as unknown.
    static func parse(_ node: ASN1Node) -> (info: SecurityInfo, warning: String?) {
        let raw = Array(node.encodedBytes)
        guard node.tag == .sequence, let first = node.children.first,
            let protocolId = try? first.objectIdentifier()
        else {
            return (
                .unknown(UnknownSecurityInfo(protocolIdentifier: nil, rawBytes: raw)),
                "SecurityInfo without a protocol OID kept raw"
            )
        }
        do {
            let info = try classify(node, protocolId: protocolId, raw: raw)
            return (info ?? .unknown(UnknownSecurityInfo(protocolIdentifier: protocolId, rawBytes: raw)), nil)
        } catch {
            let unknown = SecurityInfo.unknown(UnknownSecurityInfo(protocolIdentifier: protocolId, rawBytes: raw))
            return (unknown, "\(protocolId.name ?? protocolId.dotted) kept raw: \(error.reason)")
        }
    }

    private static func classify(
        _ node: ASN1Node, protocolId: ASN1ObjectIdentifier, raw: [UInt8]
    ) throws(LDSError) -> SecurityInfo? {
        let arcs = protocolId.arcs
        return try asn1 { () throws(ASN1Error) -> SecurityInfo? in
            // SecurityInfo ::= SEQUENCE { protocol OBJECT IDENTIFIER, requiredData ANY,
            //     optionalData ANY OPTIONAL }; fields after these are ignored (chips add some).
            var fields = node.fields
            _ = try fields.next("protocol")
            let second = try fields.next("requiredData")
            if protocolId.hasPrefix(publicKeyPrefix) && arcs.count == 10 {
                return try chipAuthenticationPublicKey(protocolId, key: second, fields: &fields, raw: raw)
            }
            let third = fields.next()
            if protocolId.hasPrefix(pacePrefix) && arcs.count == 11 {
                return .pace(
                    PACEInfo(
                        protocolIdentifier: protocolId, version: try second.intValue(),
                        parameterId: try third?.intValue(), rawBytes: raw))
            }
            if protocolId.hasPrefix(pacePrefix) && arcs.count == 10 {
                return .paceDomainParameters(
                    try DomainParameterInfo(
                        protocolIdentifier: protocolId, parameters: second, id: third, rawBytes: raw))
            }
            if protocolId.hasPrefix(chipAuthenticationPrefix) && arcs.count == 11 {
                return .chipAuthentication(
                    ChipAuthenticationInfo(
                        protocolIdentifier: protocolId, version: try second.intValue(), keyId: try third?.intValue(),
                        rawBytes: raw))
            }
            if protocolId.hasPrefix(chipAuthenticationPrefix) && arcs.count == 10 {
                return .chipAuthenticationDomainParameters(
                    try DomainParameterInfo(
                        protocolIdentifier: protocolId, parameters: second, id: third, rawBytes: raw))
            }
            if protocolId == terminalAuthentication {
                let fileId = try third.map { (fileId) throws(ASN1Error) in
                    // FileID ::= SEQUENCE { fid OCTET STRING, sfid OCTET STRING OPTIONAL }
                    Array(try fileId.wrapped("fid").octetString())
                }
                return .terminalAuthentication(
                    TerminalAuthenticationInfo(
                        protocolIdentifier: protocolId, version: try second.intValue(), efCVCAFileId: fileId,
                        rawBytes: raw))
            }
            if protocolId == activeAuthentication {
                return .activeAuthentication(
                    ActiveAuthenticationInfo(
                        protocolIdentifier: protocolId, version: try second.intValue(),
                        signatureAlgorithm: try third?.objectIdentifier(), rawBytes: raw))
            }
            return nil
        }
    }

    /// `ChipAuthenticationPublicKeyInfo ::= SEQUENCE { protocol, chipAuthenticationPublicKey
    /// SubjectPublicKeyInfo, keyId INTEGER OPTIONAL }`. Some chips write the AlgorithmIdentifier and
    /// the key inline, without the SubjectPublicKeyInfo SEQUENCE around them: then the field after
    /// the AlgorithmIdentifier is the key's BIT STRING.
    private static func chipAuthenticationPublicKey(
        _ protocolId: ASN1ObjectIdentifier, key second: ASN1Node, fields: inout ASN1Fields, raw: [UInt8]
    ) throws(ASN1Error) -> SecurityInfo {
        let inlineKey =
            second.children.first?.tag == .objectIdentifier ? fields.next(optional: .bitString) : nil
        let key: PublicKeyInfo
        do throws(ASN1Error) {
            if let inlineKey {
                key = try PublicKeyInfo(
                    algorithmNode: second, keyNode: inlineKey,
                    encoded: Array(second.encodedBytes) + Array(inlineKey.encodedBytes))
            } else {
                key = try PublicKeyInfo(node: second)
            }
        } catch {
            throw ASN1Error(.invalidValue, error.reason)
        }
        let keyId = fields.next()
        return .chipAuthenticationPublicKey(
            ChipAuthenticationPublicKeyInfo(
                protocolIdentifier: protocolId, publicKey: key, keyId: try keyId?.intValue(),
                isInline: inlineKey != nil, rawBytes: raw))
    }

    /// The entry's protocol OID (nil only for an entry without one).
    public var protocolIdentifier: ASN1ObjectIdentifier? {
        switch self {
        case .pace(let info): info.protocolIdentifier
        case .paceDomainParameters(let info): info.protocolIdentifier
        case .chipAuthentication(let info): info.protocolIdentifier
        case .chipAuthenticationDomainParameters(let info): info.protocolIdentifier
        case .chipAuthenticationPublicKey(let info): info.protocolIdentifier
        case .terminalAuthentication(let info): info.protocolIdentifier
        case .activeAuthentication(let info): info.protocolIdentifier
        case .unknown(let info): info.protocolIdentifier
        }
    }

    /// The entry exactly as read.
    public var rawBytes: [UInt8] {
        switch self {
        case .pace(let info): info.rawBytes
        case .paceDomainParameters(let info): info.rawBytes
        case .chipAuthentication(let info): info.rawBytes
        case .chipAuthenticationDomainParameters(let info): info.rawBytes
        case .chipAuthenticationPublicKey(let info): info.rawBytes
        case .terminalAuthentication(let info): info.rawBytes
        case .activeAuthentication(let info): info.rawBytes
        case .unknown(let info): info.rawBytes
        }
    }

    /// The JSON `type` name of each case.
    var typeName: String {
        switch self {
        case .pace: "paceInfo"
        case .paceDomainParameters: "paceDomainParameterInfo"
        case .chipAuthentication: "chipAuthenticationInfo"
        case .chipAuthenticationDomainParameters: "chipAuthenticationDomainParameterInfo"
        case .chipAuthenticationPublicKey: "chipAuthenticationPublicKeyInfo"
        case .terminalAuthentication: "terminalAuthenticationInfo"
        case .activeAuthentication: "activeAuthenticationInfo"
        case .unknown: "unknown"
        }
    }

    /// The reference's `SecurityInfo` numbers: version, keyId, parameterId (a domain parameter
    /// info's `id` is PACE's parameterId or Chip Authentication's keyId).
    private var numbers: (version: Int?, keyId: Int?, parameterId: Int?) {
        switch self {
        case .pace(let info): (info.version, nil, info.parameterId)
        case .paceDomainParameters(let info): (nil, nil, info.id)
        case .chipAuthentication(let info): (info.version, info.keyId, nil)
        case .chipAuthenticationDomainParameters(let info): (nil, info.id, nil)
        case .chipAuthenticationPublicKey(let info): (nil, info.keyId, nil)
        case .terminalAuthentication(let info): (info.version, nil, nil)
        case .activeAuthentication(let info): (info.version, nil, nil)
        case .unknown: (nil, nil, nil)
        }
    }

    /// The reference's `protocol`: the protocol OID, dotted ("" for an entry without one).
    public var `protocol`: String { protocolIdentifier?.dotted ?? "" }

    /// The reference's `name`: the protocol's name (e.g. id-CA-ECDH-AES-CBC-CMAC-128), the dotted
    /// OID for one without a name.
    public var name: String { protocolIdentifier.map { $0.name ?? $0.dotted } ?? "" }

    /// The reference's `version` (`i64`), from the typed info that has one.
    public var version: Int64? { numbers.version.map(Int64.init) }

    /// The reference's `keyId` (`i64`): the key a Chip Authentication info or key refers to.
    public var keyId: Int64? { numbers.keyId.map(Int64.init) }

    /// The reference's `parameterId` (`i64`): PACE's standardized domain parameter id.
    public var parameterId: Int64? { numbers.parameterId.map(Int64.init) }

    /// The reference's `SecurityInfo` (`protocol` OID, `name`, `version`, `keyId`,
    /// `parameterId`), then what this project adds: `type` and the info's own fields.
    public var json: JSONValue {
        let numbers = numbers
        var members = [
            JSONMember("protocol", .string(`protocol`)),
            JSONMember("name", .string(name)),
            JSONMember("version", .optional(numbers.version)),
            JSONMember("keyId", .optional(numbers.keyId)),
            JSONMember("parameterId", .optional(numbers.parameterId)),
            JSONMember("type", .string(typeName)),
        ]
        let details: JSONValue
        switch self {
        case .pace(let info): details = info.json
        case .paceDomainParameters(let info): details = info.json
        case .chipAuthentication(let info): details = info.json
        case .chipAuthenticationDomainParameters(let info): details = info.json
        case .chipAuthenticationPublicKey(let info): details = info.json
        case .terminalAuthentication(let info): details = info.json
        case .activeAuthentication(let info): details = info.json
        case .unknown: details = [:]
        }
        if case .object(let detailMembers) = details {
            let written = Set(members.map(\.key))
            members += detailMembers.filter { !written.contains($0.key) && $0.key != "id" }
        }
        return .object(members)
    }
}

/// `PACEInfo ::= SEQUENCE { protocol, version INTEGER, parameterId INTEGER OPTIONAL }`
public struct PACEInfo: Sendable, Equatable, JSONRepresentable {
    public let protocolIdentifier: ASN1ObjectIdentifier
    public let version: Int
    /// The standardized domain parameter ID (or a proprietary one, see `DomainParameterInfo`).
    public let parameterId: Int?
    public let rawBytes: [UInt8]

    /// Mapping, key agreement and cipher, when the OID names a protocol 9303-11 defines.
    public var paceProtocol: PACEProtocol? { PACEProtocol(protocolIdentifier) }

    public var keyAgreement: KeyAgreement? { family?.keyAgreement }

    public var mapping: PACEMapping? { family?.mapping }

    public var cipher: BlockCipher? {
        protocolIdentifier.arcs.dropFirst(10).first.flatMap(BlockCipher.init(protocolArc:))
    }

    private var family: (mapping: PACEMapping, keyAgreement: KeyAgreement)? {
        protocolIdentifier.arcs.dropFirst(9).first.flatMap(PACEProtocol.family(arc:))
    }

    public var json: JSONValue {
        [
            "version": .integer(version), "parameterId": .optional(parameterId),
            "keyAgreement": .optional(keyAgreement), "mapping": .optional(mapping), "cipher": .optional(cipher),
        ]
    }
}

/// PACEDomainParameterInfo and ChipAuthenticationDomainParameterInfo (same shape):
/// `SEQUENCE { protocol, domainParameter AlgorithmIdentifier, parameterId/keyId INTEGER OPTIONAL }`
public struct DomainParameterInfo: Sendable, Equatable, JSONRepresentable {
    public let protocolIdentifier: ASN1ObjectIdentifier
    /// The AlgorithmIdentifier's OID (e.g. id-ecPublicKey, dhpublicnumber, standardizedDomainParameters).
    public let algorithm: ASN1ObjectIdentifier
    /// The standardized parameter ID when the algorithm is standardizedDomainParameters.
    public let standardizedDomainParameterId: Int?
    /// The curve or group: a standardized ID's name, a standard curve recognised in explicit
    /// parameters, "explicit" for an unknown explicit curve, nil when not an EC or standard group.
    public let curveName: String?
    /// The AlgorithmIdentifier exactly as read (explicit curves and groups stay available).
    public let domainParameter: [UInt8]
    /// PACE's parameterId or CA's keyId that refers to these parameters.
    public let id: Int?
    public let rawBytes: [UInt8]

    init(protocolIdentifier: ASN1ObjectIdentifier, parameters: ASN1Node, id: ASN1Node?, rawBytes: [UInt8])
        throws(ASN1Error)
    {
        self.protocolIdentifier = protocolIdentifier
        // AlgorithmIdentifier ::= SEQUENCE { algorithm OBJECT IDENTIFIER, parameters ANY OPTIONAL }
        var fields = parameters.fields
        algorithm = try fields.next("algorithm").objectIdentifier()
        standardizedDomainParameterId =
            algorithm == .standardizedDomainParameters ? try fields.next("parameters").intValue() : nil
        if let id = standardizedDomainParameterId {
            curveName = StandardizedDomainParameters(id: id)?.name
        } else if let explicit = fields.next(optional: .sequence) {
            curveName = (try? PublicKeyInfo.ecParameters(explicit))?.1
        } else {
            curveName = nil
        }
        domainParameter = Array(parameters.encodedBytes)
        self.id = try id?.intValue()
        self.rawBytes = rawBytes
    }

    public var keyAgreement: KeyAgreement? { SecurityInfo.keyAgreement(of: protocolIdentifier) }

    public var json: JSONValue {
        [
            "algorithm": .string(algorithm.dotted), "algorithmName": .optional(algorithm.name),
            "standardizedDomainParameterId": .optional(standardizedDomainParameterId),
            "curveName": .optional(curveName), "domainParameter": .bytes(domainParameter), "id": .optional(id),
        ]
    }
}

/// `ChipAuthenticationInfo ::= SEQUENCE { protocol, version INTEGER, keyId INTEGER OPTIONAL }`
public struct ChipAuthenticationInfo: Sendable, Equatable, JSONRepresentable {
    public let protocolIdentifier: ASN1ObjectIdentifier
    public let version: Int
    public let keyId: Int?
    public let rawBytes: [UInt8]

    public var keyAgreement: KeyAgreement? { SecurityInfo.keyAgreement(of: protocolIdentifier) }

    public var cipher: BlockCipher? {
        protocolIdentifier.arcs.dropFirst(10).first.flatMap(BlockCipher.init(protocolArc:))
    }

    public var json: JSONValue {
        [
            "version": .integer(version), "keyId": .optional(keyId), "keyAgreement": .optional(keyAgreement),
            "cipher": .optional(cipher),
        ]
    }
}

/// `ChipAuthenticationPublicKeyInfo ::= SEQUENCE { protocol id-PK-DH | id-PK-ECDH,
///  chipAuthenticationPublicKey SubjectPublicKeyInfo, keyId INTEGER OPTIONAL }`
public struct ChipAuthenticationPublicKeyInfo: Sendable, Equatable, JSONRepresentable {
    public let protocolIdentifier: ASN1ObjectIdentifier
    public let publicKey: PublicKeyInfo
    public let keyId: Int?
    /// Written without the SubjectPublicKeyInfo SEQUENCE (`publicKey.encoded` is then the
    /// AlgorithmIdentifier followed by the BIT STRING).
    public let isInline: Bool
    public let rawBytes: [UInt8]

    public var keyAgreement: KeyAgreement? { SecurityInfo.keyAgreement(of: protocolIdentifier) }

    public var json: JSONValue {
        ["keyId": .optional(keyId), "keyAgreement": .optional(keyAgreement), "publicKey": publicKey.json]
    }
}

/// `TerminalAuthenticationInfo ::= SEQUENCE { protocol id-TA, version INTEGER, efCVCA FileID OPTIONAL }`
public struct TerminalAuthenticationInfo: Sendable, Equatable, JSONRepresentable {
    public let protocolIdentifier: ASN1ObjectIdentifier
    public let version: Int
    public let efCVCAFileId: [UInt8]?
    public let rawBytes: [UInt8]

    public var json: JSONValue { ["version": .integer(version), "efCVCAFileId": .optional(efCVCAFileId)] }
}

/// `ActiveAuthenticationInfo ::= SEQUENCE { protocol id-AA, version INTEGER, signatureAlgorithm OBJECT IDENTIFIER }`
/// (ICAO 9303-11 §6.1: present in DG14 when the DG15 key is an EC key).
public struct ActiveAuthenticationInfo: Sendable, Equatable, JSONRepresentable {
    public let protocolIdentifier: ASN1ObjectIdentifier
    public let version: Int
    public let signatureAlgorithm: ASN1ObjectIdentifier?
    public let rawBytes: [UInt8]

    public var json: JSONValue {
        [
            "version": .integer(version), "signatureAlgorithm": .optional(signatureAlgorithm?.dotted),
            "signatureAlgorithmName": .optional(signatureAlgorithm?.name),
        ]
    }
}

/// A SecurityInfo of a protocol this package does not model (CI, PT, RI, PSA, proprietary…).
public struct UnknownSecurityInfo: Sendable, Equatable {
    public let protocolIdentifier: ASN1ObjectIdentifier?
    public let rawBytes: [UInt8]
}
