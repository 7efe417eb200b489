import ASN1
import CVCertificates
import CryptoPrimitives
import Transport

/// Terminal Authentication v1 on the chip (TR-03110 v1.11 B.3, 9303-11 §7.1), after Chip
/// Authentication: MSE:Set DST (`22 81 B6`, 83 a CAR the chip knows) names the key that checks the
/// next PSO:Verify Certificate (`2A 00 BE`, the certificate's body and signature); a verified CVCA
/// link or DV certificate becomes a key for the next, a terminal's the candidate; MSE:Set AT
/// (`22 81 A4`, 83 its CHR) selects it; GET CHALLENGE gives r_PICC; EXTERNAL AUTHENTICATE's
/// signature over ID_PICC ‖ r_PICC ‖ Comp(PK_PCD) opens the files its CHAT grants.
///
/// Status words: 6A88 an unknown CAR or CHR, 6300 a signature that does not verify, 6A80 a
/// malformed or expired certificate or one out of order (a DV's below a DV's, a CVCA's below a
/// DV's), 6985 a step out of order.
struct TerminalAuthenticationState: Sendable {
    let setup: TerminalAuthenticationSetup
    /// ID_PICC after BAC: the document number and its check digit (TR-03110 v1.11 B.11.1).
    let documentNumber: [UInt8]
    /// ID_PICC after PACE (9303-11 §7.1.2, TR-03110-3 B.11.1): Comp(PK_PICC), this chip's ephemeral
    /// key of the PACE that opened the session; nil when BAC opened it.
    private var compressedPACEKey: [UInt8]?
    var currentDate: CVCDate
    /// Comp(PK_PCD) of the Chip Authentication that ran in this session.
    var compressedTerminalKey: [UInt8]?
    /// Keys verified in this session (the trust point's first), by CHR: its key, curve inherited,
    /// the certificate and the rights granted so far.
    private var known: [String: (key: CVCPublicKey, certificate: CVCertificate, rights: CertificateHolderAuthorization)]
    private var verifier: String?
    private var selected: String?
    private var challenge: [UInt8]?

    init(setup: TerminalAuthenticationSetup, documentNumber: [UInt8]) {
        self.setup = setup
        self.documentNumber = documentNumber
        currentDate = setup.currentDate
        known = [:]
        reset()
    }

    mutating func reset() {
        known = [
            setup.trustPoint.holderReference: (
                setup.trustPoint.publicKey, setup.trustPoint, setup.trustPoint.authorization
            )
        ]
        verifier = nil
        selected = nil
        challenge = nil
        compressedTerminalKey = nil
        compressedPACEKey = nil
    }

    /// PACE opened the session with `chipKey` as PK_PICC: the chip's identifier is Comp(PK_PICC).
    mutating func openedByPACE(chipKey: [UInt8], isPoint: Bool) {
        compressedPACEKey = Self.compressed(chipKey, isPoint: isPoint)
    }

    /// Comp() of 9303-11: an EC point's x coordinate (of 04‖x‖y), SHA-1 of a DH value.
    static func compressed(_ encoded: [UInt8], isPoint: Bool) -> [UInt8] {
        isPoint ? Array(encoded.dropFirst().prefix((encoded.count - 1) / 2)) : HashAlgorithm.sha1.hash(encoded)
    }

    /// MSE:Set DST: the key that checks the next certificate.
    mutating func setDigitalSignatureTemplate(_ data: [UInt8]) -> StatusWord {
        guard let reference = Self.reference(in: data) else { return .incorrectData }
        guard known[reference] != nil else { return .referencedDataNotFound }
        verifier = reference
        return .success
    }

    /// PSO:Verify Certificate.
    mutating func verifyCertificate(_ data: [UInt8]) -> StatusWord {
        guard let name = verifier, let issuer = known[name] else { return .conditionsNotSatisfied }
        guard let certificate = try? CVCertificate(encoded: DER.tlv(ASN1Tag(0x7F21), data)),
            certificate.authorityReference == name
        else { return .incorrectData }
        let role = certificate.authorization.role
        switch (issuer.certificate.authorization.role, role) {
        case (.cvca, .cvca), (.cvca, .domesticDocumentVerifier), (.cvca, .foreignDocumentVerifier): break
        case (.domesticDocumentVerifier, .terminal), (.foreignDocumentVerifier, .terminal): break
        default: return .incorrectData
        }
        guard certificate.expirationDate >= currentDate else { return .incorrectData }
        let key = certificate.publicKey.inheritingCurve(of: issuer.key)
        guard (try? issuer.key.isValidSignature(certificate.signature, of: certificate.body, holder: name)) == true
        else {
            return .verificationFailed
        }
        // The chip's date moves to the effective date of a CVCA's or a domestic DV's certificate.
        if role == .cvca || role == .domesticDocumentVerifier, certificate.effectiveDate > currentDate {
            currentDate = certificate.effectiveDate
        }
        let rights =
            role == .cvca ? certificate.authorization : certificate.authorization.restricted(to: issuer.rights)
        known[certificate.holderReference] = (key, certificate, rights)
        verifier = nil
        return .success
    }

    /// MSE:Set AT: the terminal whose certificate was verified.
    mutating func setAuthenticationTemplate(_ data: [UInt8]) -> StatusWord {
        guard let reference = Self.reference(in: data) else { return .incorrectData }
        guard let entry = known[reference], entry.certificate.authorization.role == .terminal else {
            return .referencedDataNotFound
        }
        selected = reference
        challenge = nil
        return .success
    }

    mutating func getChallenge(_ random: [UInt8]) -> ResponseAPDU {
        guard selected != nil else { return ResponseAPDU(statusWord: .conditionsNotSatisfied) }
        challenge = random
        return ResponseAPDU(data: random, statusWord: .success)
    }

    /// EXTERNAL AUTHENTICATE: the terminal's signature; the rights it proves, nil when refused.
    mutating func externalAuthenticate(_ signature: [UInt8]) -> (StatusWord, CertificateHolderAuthorization?) {
        defer { challenge = nil }
        guard let name = selected, let entry = known[name], let challenge, let compressedTerminalKey else {
            return (.conditionsNotSatisfied, nil)
        }
        let message = (compressedPACEKey ?? documentNumber) + challenge + compressedTerminalKey
        guard (try? entry.key.isValidSignature(signature, of: message, holder: name)) == true else {
            selected = nil
            return (.verificationFailed, nil)
        }
        return (.success, entry.rights)
    }

    /// The value of the first DO'83' in `data`.
    private static func reference(in data: [UInt8]) -> String? {
        guard let objects = try? ASN1Node.parseAll(data, rules: .ber),
            let value = objects.first(where: { $0.tag == ASN1Tag(0x83) })?.content, !value.isEmpty, value.count <= 16
        else { return nil }
        return String(decoding: value, as: UTF8.self)
    }
}
