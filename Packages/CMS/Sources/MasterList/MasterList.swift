import ASN1
import Foundation

/// An ICAO CSCA master list (ICAO 9303-12 §9): SignedData over the CSCA and link
/// certificates a country vouches for, signed by a master-list signer its CSCA issued.
///
/// ```
/// CscaMasterList ::= SEQUENCE {
///     version   CscaMasterListVersion,    -- v0(0)
///     certList  SET OF Certificate }
/// ```
public struct MasterList: Sendable {
    public let signedData: SignedData
    public let version: Int
    /// The list's certificates, duplicates removed, in the order first seen.
    public let certificates: [Certificate]

    public init(bytes: some Collection<UInt8>) throws(CMSError) {
        try self.init(signedData: SignedData(contentInfo: bytes))
    }

    init(signedData: SignedData) throws(CMSError) {
        guard signedData.contentType == ASN1ObjectIdentifier.cscaMasterList else {
            throw CMSError(.malformed, "eContentType \(signedData.contentType) is not id-icao-cscaMasterList")
        }
        guard let content = signedData.content else { throw CMSError(.malformed, "master list has no eContent") }
        self.signedData = signedData
        let (version, nodes) = try reading("CscaMasterList") { () throws(ASN1Error) in
            // CscaMasterList ::= SEQUENCE { version INTEGER, certList SET OF Certificate }
            var fields = try ASN1Node.parse(content).sequenceFields("CscaMasterList")
            return (try fields.next("version").intValue(), try fields.next(.set, "certList").children)
        }
        self.version = version
        var seen = Set<[UInt8]>()
        var certificates: [Certificate] = []
        for node in nodes {
            let certificate = try Certificate(node: node)
            if seen.insert(certificate.sha256Fingerprint).inserted { certificates.append(certificate) }
        }
        self.certificates = certificates
    }

    /// The outcome of checking a master list's signature and its signer's chain.
    public struct Verification: Sendable {
        public let signer: Certificate?
        /// The root the signer chained to, when one did.
        public let root: Certificate?
        public let signatureValid: Bool
        /// Nil when no roots were given.
        public let signerChainValid: Bool?
        public let signingTime: Date?
        public let problems: [PassiveAuthenticationError]
        /// Signature and signer chain both verified.
        public var isTrusted: Bool { signatureValid && signerChainValid == true }
    }

    /// Verifies the CMS signature with the signer certificate the list carries (or one from
    /// `roots`), then the signer's certificate against `roots`: issuer link, the root's
    /// signature, and validity at `time`. Without roots the chain is left unchecked.
    public func verify(roots: [Certificate], at time: Date) -> Verification {
        guard let signerInfo = signedData.signerInfos.first else {
            return Verification(
                signer: nil, root: nil, signatureValid: false, signerChainValid: roots.isEmpty ? nil : false,
                signingTime: nil, problems: [.malformedSignedData("no SignerInfo")])
        }
        let rootStore = TrustStore(roots)
        let signer =
            signedData.certificates(matching: signerInfo).first
            ?? rootStore.certificates(matching: signerInfo.identifier).first
        guard let signer else {
            return Verification(
                signer: nil, root: nil, signatureValid: false, signerChainValid: roots.isEmpty ? nil : false,
                signingTime: signerInfo.signedAttributes?.signingTime, problems: [.documentSignerNotFound])
        }
        var problems = signedData.signatureProblems(of: signerInfo, certificate: signer)
        let signatureValid = problems.isEmpty
        var root: Certificate?
        var chainValid: Bool?
        if !roots.isEmpty {
            let verifier = CertificateChainVerifier(policies: [
                IssuerLinkPolicy(), IssuerSignaturePolicy(), ValidityPolicy(at: time),
            ])
            let chain = verifier.verify(signer, candidates: rootStore.issuers(of: signer))
            root = chain.issuer
            chainValid = chain.isValid
            problems += chain.problems
        }
        return Verification(
            signer: signer, root: root, signatureValid: signatureValid, signerChainValid: chainValid,
            signingTime: signerInfo.signedAttributes?.signingTime, problems: problems)
    }

    /// The distinct subject countries (upper-cased), sorted.
    public var countries: [String] {
        Array(Set(certificates.compactMap(\.subject.country))).sorted()
    }
}

extension TrustStore {
    /// Adds a master list's certificates when its signature and signer chain verify against
    /// `roots`; returns the verification either way (nothing is added when it fails).
    @discardableResult
    public mutating func add(masterList: MasterList, roots: [Certificate], at time: Date) -> MasterList.Verification {
        let verification = masterList.verify(roots: roots, at: time)
        if verification.isTrusted { add(masterList.certificates) }
        return verification
    }
}
