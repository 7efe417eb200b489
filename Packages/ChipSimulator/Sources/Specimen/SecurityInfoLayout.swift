/// How the chip's DG14, DG15 and EF.CardSecurity describe its keys, for readers to meet the forms
/// real documents use.
public struct SecurityInfoLayout: Sendable, Hashable {
    /// Whether DG14 names each key's protocol in a ChipAuthenticationInfo. Without it only the
    /// ChipAuthenticationPublicKeyInfo is there, and a reader infers the protocol from the key
    /// (9303-11 §6.2.1: 3DES, so such a chip's keys should run 3DES).
    public var chipAuthenticationInfo: Bool
    /// Whether keys carry their explicit domain parameters (EC: ecPublicKey with a
    /// SpecifiedECDomain; DH: dhpublicnumber with p, g, q) rather than a standardized parameter
    /// ID (Chip Authentication keys) or a named curve (an ECDSA key in DG15).
    public var explicitDomainParameters: Bool

    public init(chipAuthenticationInfo: Bool = true, explicitDomainParameters: Bool = false) {
        self.chipAuthenticationInfo = chipAuthenticationInfo
        self.explicitDomainParameters = explicitDomainParameters
    }
}
