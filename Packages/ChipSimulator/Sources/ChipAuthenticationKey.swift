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

extension ChipAuthenticationKey {
    /// A fresh key by the short name a command line gives, `KEYAGREEMENT-CIPHER[:PARAMETERS]`:
    /// `ECDH-AES-128:13`, `DH-3DES:0`, `ECDH-AES-256:secp384r1` (case does not matter; without
    /// parameters ECDH is on brainpoolP256r1, DH on the 1024-bit MODP group).
    public static func generate(named text: String, keyIdentifier: Int? = nil) throws(ChipSimulatorError)
        -> ChipAuthenticationKey
    {
        let parts = text.split(separator: ":", maxSplits: 1).map { String($0).uppercased() }
        let fields = (parts.first ?? "").split(separator: "-", maxSplits: 1).map(String.init)
        guard fields.count == 2,
            let keyAgreement = KeyAgreement.allCases.first(where: { $0.abbreviation == fields[0] }),
            let cipher = PACEOffer.ciphersByName[fields[1]]
        else {
            throw ChipSimulatorError(
                "\(text) is no Chip Authentication protocol (KEYAGREEMENT-CIPHER[:PARAMETERS], e.g. ECDH-AES-128:13)")
        }
        let parameters = try PACEOffer.parameters(named: parts.count == 2 ? parts[1] : nil, for: keyAgreement, in: text)
        return ChipAuthenticationKey(
            try KeyAgreementKeyPair.generate(on: parameters), keyIdentifier: keyIdentifier, cipher: cipher)
    }
}
