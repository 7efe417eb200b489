import ASN1

/// A certificate's CHAT (7F4C, TR-03110 C.1): the terminal type (an OID) and the holder's role
/// and rights, a bit mask whose two highest bits are the role.
public struct CertificateHolderAuthorization: Sendable, Hashable, CustomStringConvertible {
    /// The terminal types of TR-03110 (id-roles).
    public enum TerminalType: Sendable, Hashable, CustomStringConvertible {
        /// id-IS: an inspection system (border control); the eMRTD's EAC.
        case inspectionSystem
        /// id-AT: an authentication terminal (eID).
        case authenticationTerminal
        /// id-ST: a signature terminal.
        case signatureTerminal

        public var objectIdentifier: ASN1ObjectIdentifier {
            switch self {
            case .inspectionSystem: ASN1ObjectIdentifier.terminalRoles.appending(1)
            case .authenticationTerminal: ASN1ObjectIdentifier.terminalRoles.appending(2)
            case .signatureTerminal: ASN1ObjectIdentifier.terminalRoles.appending(3)
            }
        }

        public init?(objectIdentifier: ASN1ObjectIdentifier) {
            guard
                let type = [Self.inspectionSystem, .authenticationTerminal, .signatureTerminal].first(where: {
                    $0.objectIdentifier == objectIdentifier
                })
            else { return nil }
            self = type
        }

        /// The discretionary data's length: one byte for IS, five for AT, one for ST.
        var templateLength: Int { self == .authenticationTerminal ? 5 : 1 }

        public var description: String {
            switch self {
            case .inspectionSystem: "inspection system"
            case .authenticationTerminal: "authentication terminal"
            case .signatureTerminal: "signature terminal"
            }
        }
    }

    /// The role: the two highest bits of the template.
    public enum Role: UInt8, Sendable, Hashable, CustomStringConvertible {
        case terminal = 0
        /// A document verifier of another state (TR-03110: non-official / foreign).
        case foreignDocumentVerifier = 1
        /// A document verifier of the issuing state (official / domestic).
        case domesticDocumentVerifier = 2
        case cvca = 3

        public var isDocumentVerifier: Bool { self == .foreignDocumentVerifier || self == .domesticDocumentVerifier }

        public var description: String {
            switch self {
            case .terminal: "terminal"
            case .foreignDocumentVerifier: "DV (foreign)"
            case .domesticDocumentVerifier: "DV (domestic)"
            case .cvca: "CVCA"
            }
        }
    }

    /// An inspection system's read rights (the low bits of its one-byte template).
    public struct InspectionRights: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// DG3: fingerprints.
        public static let readDG3 = InspectionRights(rawValue: 0x01)
        /// DG4: irises.
        public static let readDG4 = InspectionRights(rawValue: 0x02)
    }

    public let terminalType: TerminalType
    /// The discretionary data (53): role bits and rights, most significant byte first.
    public let template: [UInt8]

    public var role: Role { Role(rawValue: (template.first ?? 0) >> 6) ?? .terminal }

    /// An inspection system's rights (empty for other terminal types).
    public var inspectionRights: InspectionRights {
        guard terminalType == .inspectionSystem, let byte = template.first else { return [] }
        return InspectionRights(rawValue: byte & 0x3F)
    }

    public init(terminalType: TerminalType, template: [UInt8]) throws(CVCError) {
        guard template.count == terminalType.templateLength else {
            throw CVCError(
                .malformed, "a \(terminalType) CHAT has \(terminalType.templateLength) bytes, not \(template.count)")
        }
        self.terminalType = terminalType
        self.template = template
    }

    /// An inspection system's CHAT with a role and read rights.
    public init(inspectionSystem role: Role, rights: InspectionRights) {
        terminalType = .inspectionSystem
        template = [role.rawValue << 6 | rights.rawValue & 0x3F]
    }

    init(node: ASN1Node, holder: String) throws(CVCError) {
        let fields = node.children
        guard fields.count == 2, fields[0].tag == .objectIdentifier, fields[1].tag == CVCTag.discretionaryData else {
            throw CVCError(.malformed, "\(holder): the CHAT (7F4C) is not an OID and its discretionary data (53)")
        }
        let oid: ASN1ObjectIdentifier
        do { oid = try ASN1ObjectIdentifier(content: fields[0].content) } catch {
            throw CVCError(.malformed, "\(holder): the CHAT's OID: \(error)")
        }
        guard let type = TerminalType(objectIdentifier: oid) else {
            throw CVCError(.unsupported, "\(holder): the CHAT's terminal type \(oid) is not one TR-03110 defines")
        }
        do { try self.init(terminalType: type, template: Array(fields[1].content)) } catch {
            throw CVCError(.malformed, "\(holder): \(error.reason)")
        }
    }

    /// The 7F4C data object.
    public var encoded: [UInt8] {
        DER.constructed(
            CVCTag.holderAuthorization,
            [DER.objectIdentifier(terminalType.objectIdentifier), DER.tlv(CVCTag.discretionaryData, template)])
    }

    /// The rights both grant, with `self`'s role: the effective authorization along a chain.
    public func restricted(to issuer: CertificateHolderAuthorization) -> CertificateHolderAuthorization {
        var bytes = template
        for index in bytes.indices where index < issuer.template.count {
            let mask: UInt8 = index == 0 ? 0x3F : 0xFF
            bytes[index] = bytes[index] & (issuer.template[index] | ~mask)
        }
        return CertificateHolderAuthorization(checkedType: terminalType, template: bytes)
    }

    private init(checkedType: TerminalType, template: [UInt8]) {
        terminalType = checkedType
        self.template = template
    }

    public var description: String {
        var text = "\(terminalType), \(role)"
        if terminalType == .inspectionSystem {
            let rights = inspectionRights
            var names: [String] = []
            if rights.contains(.readDG3) { names.append("read DG3") }
            if rights.contains(.readDG4) { names.append("read DG4") }
            text += names.isEmpty ? ", no read rights" : ", " + names.joined(separator: ", ")
        }
        return text + " (\(Hex.encode(template)))"
    }
}
