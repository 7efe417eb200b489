import ASN1
import JSON

/// A SecurityInfos set: EF.CardAccess, DG14 (inside tag 6E) and the content EF.CardSecurity signs.
///
/// ```
/// SecurityInfos ::= SET OF SecurityInfo
/// DG14 ::= 6E { SecurityInfos }
/// ```
public struct SecurityOptions: LDSFileModel, Equatable {
    public let kind: LDSFileKind
    public let rawBytes: [UInt8]
    public let securityInfos: [SecurityInfo]
    public let warnings: [String]

    /// `kind` is `.dg14` or `.cardAccess`.
    public init(_ bytes: [UInt8], kind: LDSFileKind) throws(LDSError) {
        guard kind == .dg14 || kind == .cardAccess else {
            throw LDSError(.unsupported, "\(kind.rawValue) is not a SecurityInfos file")
        }
        let (outer, warnings) = try OuterTLV.parse(bytes, kind: kind)
        let set =
            kind == .dg14
            ? try asn1 { () throws(ASN1Error) in try outer.wrapped("SecurityInfos").expect(.set, "SecurityInfos") }
            : outer
        try self.init(set: set, kind: kind, rawBytes: bytes, warnings: warnings)
    }

    /// The SecurityInfos signed inside EF.CardSecurity.
    init(set: ASN1Node, kind: LDSFileKind, rawBytes: [UInt8], warnings: [String]) throws(LDSError) {
        guard set.tag == .set else { throw LDSError(.malformed, "SecurityInfos must be a SET, found \(set.tag)") }
        self.kind = kind
        self.rawBytes = rawBytes
        let parsed = set.children.map(SecurityInfo.parse)
        securityInfos = parsed.map(\.info)
        self.warnings = warnings + parsed.compactMap(\.warning)
    }

    public var paceInfos: [PACEInfo] {
        securityInfos.compactMap { if case .pace(let info) = $0 { info } else { nil } }
    }

    public var paceDomainParameterInfos: [DomainParameterInfo] {
        securityInfos.compactMap { if case .paceDomainParameters(let info) = $0 { info } else { nil } }
    }

    public var chipAuthenticationInfos: [ChipAuthenticationInfo] {
        securityInfos.compactMap { if case .chipAuthentication(let info) = $0 { info } else { nil } }
    }

    public var chipAuthenticationDomainParameterInfos: [DomainParameterInfo] {
        securityInfos.compactMap { if case .chipAuthenticationDomainParameters(let info) = $0 { info } else { nil } }
    }

    public var chipAuthenticationPublicKeyInfos: [ChipAuthenticationPublicKeyInfo] {
        securityInfos.compactMap { if case .chipAuthenticationPublicKey(let info) = $0 { info } else { nil } }
    }

    public var terminalAuthenticationInfos: [TerminalAuthenticationInfo] {
        securityInfos.compactMap { if case .terminalAuthentication(let info) = $0 { info } else { nil } }
    }

    public var activeAuthenticationInfo: ActiveAuthenticationInfo? {
        securityInfos.lazy.compactMap { if case .activeAuthentication(let info) = $0 { info } else { nil } }.first
    }

    /// The reference's `SecurityOptions` (DG14; EF.CardAccess has the same shape): `securityInfos`.
    public var json: JSONValue { ["securityInfos": .array(securityInfos)] }
}

/// EF.CardSecurity: a CMS SignedData whose eContent is SecurityInfos (BSI TR-03110-3 §A.1.2.2).
/// Only the structure down to the eContent is read here; the signature is the CMS package's job.
///
/// ```
/// ContentInfo ::= SEQUENCE { contentType id-signedData, content [0] EXPLICIT SignedData }
/// SignedData ::= SEQUENCE { version, digestAlgorithms SET, encapContentInfo SEQUENCE {
///     eContentType OBJECT IDENTIFIER (id-SecurityObject), eContent [0] EXPLICIT OCTET STRING }, … }
/// ```
public struct CardSecurity: LDSFileModel, Equatable {
    public let rawBytes: [UInt8]
    public let eContentType: ASN1ObjectIdentifier
    /// The signed SecurityInfos (its `rawBytes` are the eContent octets).
    public let securityInfos: SecurityOptions
    public let warnings: [String]

    public init(_ bytes: [UInt8]) throws(LDSError) {
        let (contentInfo, outerWarnings) = try OuterTLV.parse(bytes, kind: .cardSecurity)
        let envelope = try asn1 { () throws(ASN1Error) in try SignedDataEnvelope(contentInfo: contentInfo) }
        guard let content = envelope.content else {
            throw LDSError(.malformed, "EF.CardSecurity: the SignedData carries no eContent")
        }
        let type = envelope.contentType
        let (set, rest) = try asn1 { () throws(ASN1Error) in
            try ASN1Node.parsePrefix(content, rules: .ber, maxDepth: OuterTLV.maximumDepth)
        }
        var warnings = outerWarnings
        if type != .securityObject {
            warnings.append("eContentType \(type.dotted) is not id-SecurityObject")
        }
        if !rest.isEmpty { warnings.append("\(rest.count) bytes after the signed SecurityInfos ignored") }
        rawBytes = bytes
        eContentType = type
        securityInfos = try SecurityOptions(set: set, kind: .cardSecurity, rawBytes: content, warnings: [])
        self.warnings = warnings + securityInfos.warnings
    }

    public var json: JSONValue {
        [
            "eContentType": .string(eContentType.dotted),
            "securityInfos": .array(securityInfos.securityInfos),
        ]
    }
}

/// DG15: the Active Authentication public key (ICAO 9303-11 §6.1).
///
/// ```
/// DG15 ::= 6F { SubjectPublicKeyInfo }
/// ```
public struct ActiveAuthenticationPublicKey: LDSFileModel, Equatable {
    public let rawBytes: [UInt8]
    public let publicKey: PublicKeyInfo
    public let warnings: [String]

    public init(_ bytes: [UInt8]) throws(LDSError) {
        let (outer, warnings) = try OuterTLV.parse(bytes, kind: .dg15)
        let info = try asn1 { () throws(ASN1Error) in try outer.wrapped("SubjectPublicKeyInfo") }
        rawBytes = bytes
        publicKey = try asn1 { () throws(ASN1Error) in try PublicKeyInfo(node: info) }
        self.warnings = warnings
    }

    /// The reference's `PublicKeyInfo` (`algorithm`, `keySize`, `curve`, `der`) and what the key
    /// holds beside (see `PublicKeyInfo.json`).
    public var json: JSONValue { publicKey.json }
}
