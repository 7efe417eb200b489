import ASN1

/// A PACE protocol: mapping, key agreement and cipher, as one id-PACE OID names them (ICAO
/// 9303-11 Table "PACE object identifiers"; there is no DH-CAM and no CAM with 3DES).
public struct PACEProtocol: Sendable, Hashable, CustomStringConvertible {
    public let mapping: PACEMapping
    public let keyAgreement: KeyAgreement
    public let cipher: BlockCipher

    /// nil for a combination the standard does not define.
    public init?(mapping: PACEMapping, keyAgreement: KeyAgreement, cipher: BlockCipher) {
        if mapping == .chipAuthenticationMapping, keyAgreement == .dh || cipher == .tripleDES { return nil }
        self.mapping = mapping
        self.keyAgreement = keyAgreement
        self.cipher = cipher
    }

    /// The protocol a full id-PACE-…-cipher OID names; nil for any other OID.
    public init?(_ identifier: ASN1ObjectIdentifier) {
        let arcs = identifier.arcs
        guard identifier.hasPrefix(ASN1ObjectIdentifier.pace), arcs.count == 11,
            let family = Self.family(arc: arcs[9]), let cipher = BlockCipher(protocolArc: arcs[10])
        else { return nil }
        self.init(mapping: family.mapping, keyAgreement: family.keyAgreement, cipher: cipher)
    }

    /// The id-PACE-<key agreement>-<mapping> arc (1–4, 6) of an id-PACE OID.
    public static func family(arc: UInt64) -> (mapping: PACEMapping, keyAgreement: KeyAgreement)? {
        switch arc {
        case 1: (.genericMapping, .dh)
        case 2: (.genericMapping, .ecdh)
        case 3: (.integratedMapping, .dh)
        case 4: (.integratedMapping, .ecdh)
        case 6: (.chipAuthenticationMapping, .ecdh)
        default: nil
        }
    }

    private var familyArc: UInt64 {
        switch (mapping, keyAgreement) {
        case (.genericMapping, .dh): 1
        case (.genericMapping, .ecdh): 2
        case (.integratedMapping, .dh): 3
        case (.integratedMapping, .ecdh): 4
        case (.chipAuthenticationMapping, _): 6
        }
    }

    /// The id-PACE OID of this protocol.
    public var identifier: ASN1ObjectIdentifier {
        ASN1ObjectIdentifier.pace.appending(familyArc, cipher.protocolArc)
    }

    /// `id-PACE-ECDH-GM-AES-CBC-CMAC-128` and so on.
    public var description: String {
        "id-PACE-\(keyAgreement.abbreviation)-\(mapping.abbreviation)-\(cipher.protocolName)"
    }
}

/// A Chip Authentication protocol: key agreement and cipher, as one id-CA OID names them (ICAO
/// 9303-11 §9.2.5).
public struct ChipAuthenticationProtocol: Sendable, Hashable, CustomStringConvertible {
    public let keyAgreement: KeyAgreement
    public let cipher: BlockCipher

    public init(keyAgreement: KeyAgreement, cipher: BlockCipher) {
        self.keyAgreement = keyAgreement
        self.cipher = cipher
    }

    /// The protocol a full id-CA-…-cipher OID names; nil for any other OID.
    public init?(_ identifier: ASN1ObjectIdentifier) {
        let arcs = identifier.arcs
        guard identifier.hasPrefix(ASN1ObjectIdentifier.chipAuthentication), arcs.count == 11,
            let keyAgreement = Self.keyAgreement(arc: arcs[9]),
            let cipher = BlockCipher(protocolArc: arcs[10])
        else { return nil }
        self.init(keyAgreement: keyAgreement, cipher: cipher)
    }

    /// The key agreement of an id-CA-DH/ECDH or id-PK-DH/ECDH OID (with or without the cipher arc).
    public static func keyAgreement(of identifier: ASN1ObjectIdentifier) -> KeyAgreement? {
        guard
            identifier.hasPrefix(ASN1ObjectIdentifier.chipAuthentication)
                || identifier.hasPrefix(ASN1ObjectIdentifier.chipAuthenticationPublicKey),
            identifier.arcs.count >= 10
        else { return nil }
        return Self.keyAgreement(arc: identifier.arcs[9])
    }

    /// The id-CA OID of this protocol.
    public var identifier: ASN1ObjectIdentifier {
        ASN1ObjectIdentifier.chipAuthentication.appending(keyAgreement == .dh ? 1 : 2, cipher.protocolArc)
    }

    /// The key agreement of an id-PK or id-CA key-agreement arc (1 DH, 2 ECDH).
    private static func keyAgreement(arc: UInt64) -> KeyAgreement? {
        switch arc {
        case 1: .dh
        case 2: .ecdh
        default: nil
        }
    }

    /// `id-CA-ECDH-AES-CBC-CMAC-128` and so on.
    public var description: String { "id-CA-\(keyAgreement.abbreviation)-\(cipher.protocolName)" }
}
