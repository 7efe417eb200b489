import ASN1

/// What the chip knows that a reader must prove or that proves the chip: the passwords of BAC and
/// PACE (the MRZ and/or the CAN), the PACE protocols it offers, and its private keys (RSA for
/// Active Authentication, ECDH or DH for Chip Authentication and PACE-CAM). Passwords are secrets
/// and keys are private: none of them appears in a description.
public struct Credentials: Sendable, CustomStringConvertible, CustomReflectable {
    /// The MRZ password. Nil takes it from the MRZ in DG1 (as a chip personalised from DG1
    /// would); a chip without either refuses BAC.
    public var mrz: MRZPassword?
    /// The card access number, PACE's second password.
    public var can: CardAccessNumber?
    /// The PACE protocols offered. They make the chip's EF.CardAccess (`cardAccessFile()`), in
    /// the order DER sorts a SET into.
    public var paceOffers: [PACEOffer]
    /// The Active Authentication key (its public half belongs in DG15).
    public var activeAuthenticationKey: RSAKeyPair?
    /// The Chip Authentication keys (their public halves belong in DG14).
    public var chipAuthenticationKeys: [ChipAuthenticationKey]

    public init(
        mrz: MRZPassword? = nil,
        can: CardAccessNumber? = nil,
        paceOffers: [PACEOffer] = [],
        activeAuthenticationKey: RSAKeyPair? = nil,
        chipAuthenticationKeys: [ChipAuthenticationKey] = []
    ) {
        self.mrz = mrz
        self.can = can
        self.paceOffers = paceOffers
        self.activeAuthenticationKey = activeAuthenticationKey
        self.chipAuthenticationKeys = chipAuthenticationKeys
    }

    /// The MRZ password: the one given, else the one in DG1 of `files` (check digits as printed).
    func mrzPassword(orFrom files: ChipFiles) -> MRZPassword? {
        mrz ?? files[dataGroup: 1].flatMap(SimulatedChip.machineReadableZone).flatMap(MRZPassword.init)
    }

    /// EF.CardAccess for the PACE offers: a DER SET of PACEInfo { protocol OID, version 2,
    /// parameter ID } (9303-11 §9.2.1); nil when the chip offers no PACE.
    func cardAccessFile() -> [UInt8]? {
        guard !paceOffers.isEmpty else { return nil }
        return DER.set(
            paceOffers.map {
                DER.sequence([
                    DER.objectIdentifier($0.paceProtocol.identifier), DER.integer(2), DER.integer($0.parameters.id),
                ])
            })
    }

    /// Which credentials are present, never their values.
    public var description: String {
        var parts: [String] = []
        if mrz != nil { parts.append("MRZ") }
        if can != nil { parts.append("CAN") }
        if !paceOffers.isEmpty { parts.append("PACE: \(paceOffers.map(\.description).joined(separator: ", "))") }
        if let activeAuthenticationKey { parts.append("AA: RSA \(activeAuthenticationKey.modulusBits) bits") }
        if !chipAuthenticationKeys.isEmpty { parts.append("CA keys: \(chipAuthenticationKeys.count)") }
        return "Credentials(\(parts.isEmpty ? "none" : parts.joined(separator: "; ")), secrets redacted)"
    }

    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
