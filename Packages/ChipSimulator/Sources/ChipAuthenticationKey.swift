/// The chip's static Chip Authentication key (ICAO 9303-11 §6.2) and the key ID that tells it
/// apart when DG14 lists several.
public struct ChipAuthenticationKey: Sendable, CustomStringConvertible {
    public let keyPair: KeyAgreementKeyPair
    /// The `keyId` of its ChipAuthenticationInfo and ChipAuthenticationPublicKeyInfo; nil when
    /// the chip has only one key.
    public let keyIdentifier: Int?

    public init(_ keyPair: KeyAgreementKeyPair, keyIdentifier: Int? = nil) {
        self.keyPair = keyPair
        self.keyIdentifier = keyIdentifier
    }

    public var description: String {
        "ChipAuthenticationKey(\(keyPair)\(keyIdentifier.map { ", key ID \($0)" } ?? ""))"
    }
}
