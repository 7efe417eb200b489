import Foundation

/// One rule a certificate must meet with respect to a candidate issuer. Chain checks are
/// a list of these, so a caller states exactly which rules apply (a DSC, a master-list
/// signer) and tests can exercise each alone.
public protocol CertificatePolicy: Sendable {
    /// The rule's failure, or nil when `certificate` meets it under `issuer`.
    func check(_ certificate: Certificate, issuedBy issuer: Certificate) -> PassiveAuthenticationError?
}

/// The issuer's key verifies the certificate's signature.
public struct IssuerSignaturePolicy: CertificatePolicy {
    public init() {}
    public func check(_ certificate: Certificate, issuedBy issuer: Certificate) -> PassiveAuthenticationError? {
        do {
            return try certificate.isSignature(verifiedBy: issuer) ? nil : .issuerSignatureInvalid
        } catch {
            return .unsupportedAlgorithm(error.reason)
        }
    }
}

/// The issuer is the one the certificate names: same subject as its issuer name, or a
/// subject key identifier equal to its authority key identifier.
public struct IssuerLinkPolicy: CertificatePolicy {
    public init() {}
    public func check(_ certificate: Certificate, issuedBy issuer: Certificate) -> PassiveAuthenticationError? {
        if issuer.subject == certificate.issuer { return nil }
        if let authority = certificate.extensions.authorityKeyIdentifier,
            authority == issuer.extensions.subjectKeyIdentifier
        {
            return nil
        }
        return .issuerNotFound(issuer: certificate.issuer.rfc4514)
    }
}

/// The certificate is valid at the check time.
public struct ValidityPolicy: CertificatePolicy {
    public let time: Date
    public init(at time: Date) { self.time = time }
    public func check(_ certificate: Certificate, issuedBy issuer: Certificate) -> PassiveAuthenticationError? {
        certificate.isValid(at: time)
            ? nil
            : .notValidAtCheckTime(
                certificate: certificate.identification, notBefore: certificate.notBefore,
                notAfter: certificate.notAfter, checkTime: time)
    }
}

/// The certificate was issued (its notBefore) while its issuer was valid.
public struct IssuedWithinIssuerValidityPolicy: CertificatePolicy {
    public init() {}
    public func check(_ certificate: Certificate, issuedBy issuer: Certificate) -> PassiveAuthenticationError? {
        issuer.isValid(at: certificate.notBefore) ? nil : .issuedOutsideIssuerValidity
    }
}

/// The certificate carries a key usage extension with `required` set.
public struct KeyUsagePolicy: CertificatePolicy {
    public let required: KeyUsage
    public let name: String
    public init(_ required: KeyUsage, name: String) {
        self.required = required
        self.name = name
    }
    public func check(_ certificate: Certificate, issuedBy issuer: Certificate) -> PassiveAuthenticationError? {
        certificate.extensions.keyUsage?.contains(required) == true ? nil : .keyUsageMissing(name)
    }
}

/// The certificate is on no revocation list its issuer signed (RFC 5280 §6.3, ICAO 9303-12
/// §7.1.4) with a revocation date at or before the check time. Lists not signed by the issuer
/// are ignored, so a forged list can neither revoke nor clear.
public struct RevocationPolicy: CertificatePolicy {
    public let store: TrustStore
    public let time: Date
    public init(_ store: TrustStore, at time: Date) {
        self.store = store
        self.time = time
    }
    public func check(_ certificate: Certificate, issuedBy issuer: Certificate) -> PassiveAuthenticationError? {
        guard let date = store.revocationDate(of: certificate, issuedBy: issuer), date <= time else { return nil }
        return .certificateRevoked(certificate: certificate.identification, revocationDate: date)
    }
}

/// Checks a certificate against candidate issuers under a list of policies.
public struct CertificateChainVerifier: Sendable {
    public let policies: [any CertificatePolicy]

    public init(policies: [any CertificatePolicy]) {
        self.policies = policies
    }

    /// The rules for a Document Signer certificate (ICAO 9303-11 §5.1): the issuer link,
    /// the CSCA's signature, issued within the CSCA's validity, valid at `time`, digitalSignature,
    /// and not revoked by a CRL of its CSCA in `revocations`.
    public static func documentSigner(at time: Date, revocations: TrustStore = TrustStore())
        -> CertificateChainVerifier
    {
        CertificateChainVerifier(policies: [
            IssuerLinkPolicy(), IssuerSignaturePolicy(), IssuedWithinIssuerValidityPolicy(), ValidityPolicy(at: time),
            KeyUsagePolicy(.digitalSignature, name: "digitalSignature"), RevocationPolicy(revocations, at: time),
        ])
    }

    public struct Result: Sendable {
        /// The issuer that passed, or else the closest candidate (fewest failures); nil when none.
        public let issuer: Certificate?
        public let problems: [PassiveAuthenticationError]
        public var isValid: Bool { issuer != nil && problems.isEmpty }
    }

    /// The first candidate under which every policy holds, else the one with the fewest failures.
    public func verify(_ certificate: Certificate, candidates: [Certificate]) -> Result {
        var best: (issuer: Certificate, problems: [PassiveAuthenticationError])?
        for candidate in candidates {
            let problems = policies.compactMap { $0.check(certificate, issuedBy: candidate) }
            if problems.isEmpty { return Result(issuer: candidate, problems: []) }
            if best == nil || problems.count < best?.problems.count ?? .max { best = (candidate, problems) }
        }
        guard let best else {
            return Result(issuer: nil, problems: [.issuerNotFound(issuer: certificate.issuer.rfc4514)])
        }
        return Result(issuer: best.issuer, problems: best.problems)
    }
}
