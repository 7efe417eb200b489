import CryptoPrimitives
import ICAO
import Secrets

/// KSenc and KSmac of one secure-messaging session, always for the same cipher: BAC derives 3DES
/// keys, PACE and Chip Authentication any of the four ciphers.
struct SessionKeys: Sendable {
    let encryption: SymmetricKey
    let mac: SymmetricKey

    var cipher: BlockCipher { encryption.cipher }

    /// Both keys by the 9303-11 KDF from a shared secret (BAC's K_seed, PACE's or CA's shared
    /// secret), so they cannot disagree on the cipher.
    init(sharedSecret: SecretBytes, cipher: BlockCipher) {
        encryption = ICAOKeyDerivation.deriveKey(from: sharedSecret, purpose: .encryption, cipher: cipher)
        mac = ICAOKeyDerivation.deriveKey(from: sharedSecret, purpose: .mac, cipher: cipher)
    }

    /// Keys given as they are; nil when they are for different ciphers.
    init?(encryption: SymmetricKey, mac: SymmetricKey) {
        guard encryption.cipher == mac.cipher else { return nil }
        self.encryption = encryption
        self.mac = mac
    }
}
