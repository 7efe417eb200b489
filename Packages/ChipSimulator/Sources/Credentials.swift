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
    /// The Active Authentication key (its public half belongs in DG15; an ECDSA key's hash also
    /// in DG14's ActiveAuthenticationInfo).
    public var activeAuthenticationKey: ActiveAuthenticationKey?
    /// The Chip Authentication keys (their public halves belong in DG14).
    public var chipAuthenticationKeys: [ChipAuthenticationKey]

    public init(
        mrz: MRZPassword? = nil,
        can: CardAccessNumber? = nil,
        paceOffers: [PACEOffer] = [],
        activeAuthenticationKey: ActiveAuthenticationKey? = nil,
        chipAuthenticationKeys: [ChipAuthenticationKey] = []
    ) {
        self.mrz = mrz
        self.can = can
        self.paceOffers = paceOffers
        self.activeAuthenticationKey = activeAuthenticationKey
        self.chipAuthenticationKeys = chipAuthenticationKeys
    }

    /// Sets the PACE offers; each CAM offer whose parameters have no Chip Authentication key here
    /// gets a fresh one (CAM's static key).
    public mutating func offerPACE(_ offers: [PACEOffer]) throws(ChipSimulatorError) {
        paceOffers = offers
        for offer in offers where offer.paceProtocol.mapping == .chipAuthenticationMapping {
            let parameters = offer.parameters.domainParameters
            guard !chipAuthenticationKeys.contains(where: { $0.keyPair.domainParameters == parameters }) else {
                continue
            }
            chipAuthenticationKeys.append(ChipAuthenticationKey(try KeyAgreementKeyPair.generate(on: offer.parameters)))
        }
    }

    /// The MRZ password: the one given, else the one in DG1 of `files` (check digits as printed).
    func mrzPassword(orFrom files: ChipFiles) -> MRZPassword? {
        mrz ?? files[dataGroup: 1].flatMap(SimulatedChip.machineReadableZone).flatMap(MRZPassword.init)
    }

    /// EF.CardAccess for the PACE offers: a DER SET of PACEInfo { protocol OID, version 2,
    /// parameter ID } (9303-11 §9.2.1); nil when the chip offers no PACE.
    func cardAccessFile(cluttered: Bool = false) -> [UInt8]? {
        guard let first = paceOffers.first else { return nil }
        let offers = paceOffers.map(SecurityInfosWriter.paceInfo)
        return DER.set(cluttered ? SecurityInfosWriter.clutter(before: first) + offers : offers)
    }

    /// A clone's credentials (the `clonedKeys` fault): the same passwords and offers, but fresh
    /// private keys of the same kinds in place of the Chip Authentication and Active
    /// Authentication keys, so the public keys the issuer signed are not the chip's. A key that
    /// cannot be made is left out (the chip then fails the protocol all the same).
    func cloned() -> Credentials {
        var clone = self
        clone.chipAuthenticationKeys = chipAuthenticationKeys.compactMap { key in
            (try? KeyAgreementKeyPair.generate(in: key.keyPair.domainParameters)).map {
                ChipAuthenticationKey($0, keyIdentifier: key.keyIdentifier, cipher: key.cipher)
            }
        }
        clone.activeAuthenticationKey = activeAuthenticationKey.flatMap { key -> ActiveAuthenticationKey? in
            switch key.algorithm {
            case .rsa(let pair, let trailer):
                return try? ActiveAuthenticationKey.rsa(RSAKeyPair.generate(bits: pair.modulusBits), trailer: trailer)
            case .ecdsa(let pair, let hash, let encoding):
                return try? ActiveAuthenticationKey.ecdsa(
                    KeyAgreementKeyPair.generate(in: pair.domainParameters), hash: hash, encoding: encoding)
            }
        }
        return clone
    }

    /// Which credentials are present, never their values.
    public var description: String {
        var parts: [String] = []
        if mrz != nil { parts.append("MRZ") }
        if can != nil { parts.append("CAN") }
        if !paceOffers.isEmpty { parts.append("PACE: \(paceOffers.map(\.description).joined(separator: ", "))") }
        if let activeAuthenticationKey { parts.append("AA: \(activeAuthenticationKey)") }
        if !chipAuthenticationKeys.isEmpty { parts.append("CA keys: \(chipAuthenticationKeys.count)") }
        return "Credentials(\(parts.isEmpty ? "none" : parts.joined(separator: "; ")), secrets redacted)"
    }

    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
