import ICAO

/// How long a nonce s the chip draws for PACE. 9303-11's R(s, t) of Integrated Mapping has
/// constants for a 128-bit and a 256-bit s; chips in the field (and OpenPACE's chip side) draw one
/// AES block whatever the key size, so a reader must take both.
public enum PACENonceLength: String, Sendable, CaseIterable {
    /// 16 bytes: one AES block (two 3DES blocks, the least R(s, t) takes).
    case oneBlock = "block"
    /// As long as the key, rounded up to whole blocks: 16 bytes for 3DES and AES-128, 32 for
    /// AES-192 and AES-256.
    case keyLength = "key"

    /// The nonce's length in bytes under `cipher`.
    func byteCount(_ cipher: BlockCipher) -> Int {
        switch self {
        case .oneBlock: 16
        case .keyLength: (cipher.keyLength + cipher.blockSize - 1) / cipher.blockSize * cipher.blockSize
        }
    }
}
