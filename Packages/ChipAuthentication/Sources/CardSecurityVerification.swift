import CMS
import Foundation
import LDS

/// Whether EF.CardSecurity is what the issuer signed (ICAO 9303-11 §9.2: a CMS SignedData whose
/// eContent is SecurityInfos, signed by a Document Signer like EF.SOD): its signature and the
/// signer's chain to a trusted CSCA, checked by the CMS package exactly as Passive Authentication
/// checks EF.SOD. PACE-CAM takes the chip's static key from it only when it is authentic.
public struct CardSecurityVerification: Sendable {
    public enum Status: Sendable, Hashable {
        /// Signature and chain verified.
        case authentic
        /// The signature verifies but no trusted CSCA issued the signer: nothing is proved.
        case authorityNotProvided
        /// Malformed, or a signature or chain that does not verify: the reason says which.
        case notAuthentic(String)
    }

    /// The signed SecurityInfos, nil when the file does not parse.
    public let securityInfos: SecurityOptions?
    public let status: Status

    public init(_ bytes: [UInt8], trustStore: TrustStore, at time: Date) {
        let parsed: CardSecurity
        let signedData: SignedData
        do {
            parsed = try CardSecurity(bytes)
            signedData = try SignedData(contentInfo: bytes)
        } catch {
            securityInfos = nil
            status = .notAuthentic("EF.CardSecurity is malformed: \(error)")
            return
        }
        securityInfos = parsed.securityInfos
        let signer = SignerVerification(signedData, trustStore: trustStore, at: time)
        let problems = signer.problems.map { "\($0)" }.joined(separator: "; ")
        if signer.signatureValid && signer.chainValid {
            status = .authentic
        } else if signer.signatureValid && signer.issuerMissing {
            status = .authorityNotProvided
        } else {
            status = .notAuthentic("EF.CardSecurity's signature or signer does not verify: \(problems)")
        }
    }
}
