import Foundation

/// The outcome of checking a signed list (a CSCA master list, a deviation list): its signature
/// and its signer's chain to a trusted certificate.
public struct SignedListVerification: Sendable {
    public let signer: Certificate?
    /// The root the signer chained to, when one did.
    public let root: Certificate?
    public let signatureValid: Bool
    /// Nil when the chain was not checked (no roots given).
    public let signerChainValid: Bool?
    public let signingTime: Date?
    public let problems: [PassiveAuthenticationError]
    /// Signature and signer chain both verified.
    public var isTrusted: Bool { signatureValid && signerChainValid == true }
}

extension SignedData {
    /// Verifies the CMS signature with the signer certificate the list carries (or one of
    /// `anchors`), then, when `checkingChain`, the signer's certificate against `anchors`: issuer
    /// link, the issuer's signature, and validity at `time`.
    func verifyListSigner(anchors: TrustStore, checkingChain: Bool, at time: Date) -> SignedListVerification {
        guard let signerInfo = signerInfos.first else {
            return SignedListVerification(
                signer: nil, root: nil, signatureValid: false, signerChainValid: checkingChain ? false : nil,
                signingTime: nil, problems: [.malformedSignedData("no SignerInfo")])
        }
        let signer =
            certificates(matching: signerInfo).first ?? anchors.certificates(matching: signerInfo.identifier).first
        guard let signer else {
            return SignedListVerification(
                signer: nil, root: nil, signatureValid: false, signerChainValid: checkingChain ? false : nil,
                signingTime: signerInfo.signedAttributes?.signingTime, problems: [.documentSignerNotFound])
        }
        var problems = signatureProblems(of: signerInfo, certificate: signer)
        let signatureValid = problems.isEmpty
        var root: Certificate?
        var chainValid: Bool?
        if checkingChain {
            let verifier = CertificateChainVerifier(policies: [
                IssuerLinkPolicy(), IssuerSignaturePolicy(), ValidityPolicy(at: time),
            ])
            let chain = verifier.verify(signer, candidates: anchors.issuers(of: signer))
            root = chain.issuer
            chainValid = chain.isValid
            problems += chain.problems
        }
        return SignedListVerification(
            signer: signer, root: root, signatureValid: signatureValid, signerChainValid: chainValid,
            signingTime: signerInfo.signedAttributes?.signingTime, problems: problems)
    }
}
