/// A chain of CV certificates from a trust point down to a terminal, verified as the chip checks it
/// (TR-03110 v1 App. C): each certificate signed by the one above (CAR = the issuer's CHR), link
/// CVCA certificates first, then one DV, then the terminal; every key's curve inherited from the
/// CVCA; the rights those above also grant.
public struct CVCChain: Sendable {
    /// The certificates below the trust point, top down.
    public let certificates: [CVCertificate]
    /// The terminal's key, its curve inherited: what Terminal Authentication's signature is checked with.
    public let terminalKey: CVCPublicKey
    /// The terminal's rights that every certificate above also grants.
    public let effectiveAuthorization: CertificateHolderAuthorization

    public var terminal: CVCertificate? { certificates.last }

    /// Verifies `certificates` (top down, the first issued by `trustPoint`, a CVCA's certificate).
    /// With `date`, each certificate must be valid on it; effective after expiration is refused
    /// always. The error names the certificate and the field.
    public init(trustPoint: CVCertificate, certificates: [CVCertificate], at date: CVCDate? = nil) throws(CVCError) {
        guard trustPoint.authorization.role == .cvca else {
            throw CVCError(
                .wrongRole,
                "trust point \(trustPoint.holderReference) is a \(trustPoint.authorization.role), not a CVCA")
        }
        guard trustPoint.publicKey.curveParameters != nil || !trustPoint.publicKey.algorithm.isECDSA else {
            throw CVCError(
                .unusableKey, "trust point \(trustPoint.holderReference): a CVCA's ECDSA key lacks its curve")
        }
        guard !certificates.isEmpty else { throw CVCError(.malformed, "no certificate below the trust point") }
        var issuer = trustPoint
        var issuerKey = trustPoint.publicKey
        var authorization = trustPoint.authorization
        var seenDocumentVerifier = false
        var terminalType: CertificateHolderAuthorization.TerminalType?
        for (index, certificate) in certificates.enumerated() {
            let name = "certificate \(certificate.holderReference)"
            guard certificate.authorityReference == issuer.holderReference else {
                throw CVCError(
                    .wrongIssuer,
                    "\(name): its CAR \(certificate.authorityReference) is not \(issuer.holderReference), the CHR above it"
                )
            }
            let role = certificate.authorization.role
            // A CVCA may sign DVs of several terminal types (the BSI worked example's IS-typed CVCA
            // signs an authentication terminal's DV); below the CVCAs the type is one.
            if let type = terminalType, certificate.authorization.terminalType != type {
                throw CVCError(
                    .wrongRole,
                    "\(name): CHAT terminal type \(certificate.authorization.terminalType), its DV's is \(type)")
            }
            if role != .cvca { terminalType = certificate.authorization.terminalType }
            let isLast = index == certificates.count - 1
            switch role {
            case .cvca:
                guard !seenDocumentVerifier, !isLast else {
                    throw CVCError(.wrongRole, "\(name): a CVCA certificate (CHAT role) where a DV or terminal belongs")
                }
            case .domesticDocumentVerifier, .foreignDocumentVerifier:
                guard !seenDocumentVerifier, !isLast else {
                    throw CVCError(
                        .wrongRole,
                        "\(name): a DV certificate (CHAT role) where \(isLast ? "the terminal" : "a terminal") belongs")
                }
                seenDocumentVerifier = true
            case .terminal:
                guard seenDocumentVerifier, isLast else {
                    throw CVCError(
                        .wrongRole,
                        "\(name): a terminal certificate (CHAT role) \(seenDocumentVerifier ? "above the end" : "without a DV above it")"
                    )
                }
            }
            guard certificate.effectiveDate <= certificate.expirationDate else {
                throw CVCError(
                    .notValid,
                    "\(name): effective date \(certificate.effectiveDate) after its expiration date \(certificate.expirationDate)"
                )
            }
            if let date {
                guard certificate.effectiveDate <= date else {
                    throw CVCError(.notValid, "\(name): effective date \(certificate.effectiveDate) is after \(date)")
                }
                guard date <= certificate.expirationDate else {
                    throw CVCError(
                        .notValid,
                        "\(name): expired on its expiration date \(certificate.expirationDate), before \(date)")
                }
            }
            guard
                try issuerKey.isValidSignature(
                    certificate.signature, of: certificate.body, holder: issuer.holderReference)
            else {
                throw CVCError(
                    .badSignature, "\(name): the signature (5F37) does not verify with \(issuer.holderReference)'s key")
            }
            // A link certificate brings new domain parameters; the others inherit the CVCA's.
            issuerKey = certificate.publicKey.inheritingCurve(of: issuerKey)
            authorization =
                role == .cvca || certificate.authorization.terminalType != authorization.terminalType
                ? certificate.authorization : certificate.authorization.restricted(to: authorization)
            issuer = certificate
        }
        self.certificates = certificates
        terminalKey = issuerKey
        effectiveAuthorization = authorization
    }
}
