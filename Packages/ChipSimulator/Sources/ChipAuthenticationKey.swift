import ICAO

/// The chip's static Chip Authentication key (ICAO 9303-11 §6.2), the cipher of the protocol its
/// ChipAuthenticationInfo names, and the key ID that tells it apart when DG14 lists several.
public struct ChipAuthenticationKey: Sendable, CustomStringConvertible {
    public let keyPair: KeyAgreementKeyPair
    /// The `keyId` of its ChipAuthenticationInfo and ChipAuthenticationPublicKeyInfo; nil when
    /// the chip has only one key.
    public let keyIdentifier: Int?
    /// The cipher of the session keys Chip Authentication with this key derives. The chip runs
    /// only this protocol with the key (MSE:Set KAT only for 3DES), as DG14 announces it; a DG14
    /// without ChipAuthenticationInfo makes readers assume 3DES (9303-11 §6.2.1).
    public let cipher: BlockCipher

    public init(_ keyPair: KeyAgreementKeyPair, keyIdentifier: Int? = nil, cipher: BlockCipher = .aes128) {
        self.keyPair = keyPair
        self.keyIdentifier = keyIdentifier
        self.cipher = cipher
    }

    /// The id-CA protocol this key runs (its ChipAuthenticationInfo's OID).
    public var chipAuthenticationProtocol: ChipAuthenticationProtocol {
        ChipAuthenticationProtocol(keyAgreement: keyPair.keyAgreement, cipher: cipher)
    }

    public var description: String {
        "ChipAuthenticationKey(\(chipAuthenticationProtocol)\(keyIdentifier.map { ", key ID \($0)" } ?? ""))"
    }
}
