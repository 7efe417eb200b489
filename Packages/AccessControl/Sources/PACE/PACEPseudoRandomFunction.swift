import CryptoPrimitives
import ICAO
import Secrets

/// R(s, t), the pseudo-random function of PACE's Integrated Mapping (ICAO 9303-11 §4.4.3.3.2):
/// the block cipher in CBC mode with IV 0 turns the chip's nonce s and the terminal's nonce t into
/// n·l bits, enough to cover the prime and 64 bits more (so that reducing them mod p is uniform).
///
/// ```
/// key_1 = E(t, s)                               -- t is the key, truncated keys are k bits
/// x_i = E(key_i, c_1),  key_{i+1} = E(key_i, c_0)   for i = 1 … n
/// R(s, t) = x_1 ‖ … ‖ x_n,   n the least with n·l ≥ log2 p + 64
/// ```
enum PACEPseudoRandomFunction {
    /// c0 and c1 for l = 128 (a nonce of one AES block, or two 3DES blocks).
    static let constants128: (c0: [UInt8], c1: [UInt8]) = (
        [0xA6, 0x68, 0x89, 0x2A, 0x7C, 0x41, 0xE3, 0xCA, 0x73, 0x9F, 0x40, 0xB0, 0x57, 0xD8, 0x59, 0x04],
        [0xA4, 0xE1, 0x36, 0xAC, 0x72, 0x5F, 0x73, 0x8B, 0x01, 0xC1, 0xF6, 0x02, 0x17, 0xC1, 0x88, 0xAD]
    )
    /// c0 and c1 for l = 256 (a nonce as long as an AES-192/256 key, rounded up to blocks).
    static let constants256: (c0: [UInt8], c1: [UInt8]) = (
        [
            0xD4, 0x63, 0xD6, 0x52, 0x34, 0x12, 0x4E, 0xF7, 0x89, 0x70, 0x54, 0x98, 0x6D, 0xCA, 0x0A, 0x17, 0x4E, 0x28,
            0xDF, 0x75, 0x8C, 0xBA, 0xA0, 0x3F, 0x24, 0x06, 0x16, 0x41, 0x4D, 0x5A, 0x16, 0x76,
        ],
        [
            0x54, 0xBD, 0x72, 0x55, 0xF0, 0xAA, 0xF8, 0x31, 0xBE, 0xC3, 0x42, 0x3F, 0xCF, 0x39, 0xD6, 0x9B, 0x6C, 0xBF,
            0x06, 0x66, 0x77, 0xD0, 0xFA, 0xAE, 0x5A, 0xAD, 0xD9, 0x9D, 0xF8, 0xE5, 0x35, 0x17,
        ]
    )

    /// R(s, t) for a prime of `primeBits` bits. t is the key (`cipher.keyLength` bytes, k bits); s
    /// is the data, l = 128 or 256 bits, and c0, c1 are l's. Chips in the field draw s as one AES
    /// block (l = 128) under every AES key size, as OpenPACE's chip side does; others draw it as
    /// long as the key (l = 256 for AES-192/256). Each key_i is E's output truncated to k bits;
    /// when l < k that output is l bits long and keys AES of l bits, as such chips compute it.
    static func output(
        chipNonce: SecretBytes, terminalNonce: SecretBytes, cipher: BlockCipher, primeBits: Int
    ) throws -> SecretBytes {
        let (c0, c1): ([UInt8], [UInt8])
        switch chipNonce.count {
        case 16: (c0, c1) = constants128
        case 32: (c0, c1) = constants256
        default:
            throw AccessControlError(
                .protocolViolation, .pace,
                "the chip's nonce has \(chipNonce.count) bytes; 9303-11's R(s, t) takes a nonce of 16 or 32 bytes")
        }
        let derivedKeyLength = min(cipher.keyLength, chipNonce.count)
        guard let derivedCipher = cipher == .tripleDES ? .tripleDES : BlockCipher(aesKeyLength: derivedKeyLength)
        else {
            throw AccessControlError(.internalFailure, .pace, "no cipher for a \(derivedKeyLength)-byte key")
        }
        let blocks = (primeBits + 64 + c0.count * 8 - 1) / (c0.count * 8)
        let zero = [UInt8](repeating: 0, count: cipher.blockSize)
        var first = try chipNonce.withUnsafeBytes {
            try SymmetricKey(cipher, secret: terminalNonce).encryptCBC($0, iv: zero)
        }
        var key = try SymmetricKey(derivedCipher, secret: SecretBytes(consuming: &first).prefix(derivedKeyLength))
        var output: [UInt8] = []
        output.reserveCapacity(blocks * c0.count)  // no reallocation leaves an unwiped copy behind
        defer { output.wipe() }
        for _ in 0..<blocks {
            output += try key.encryptCBC(c1, iv: zero)
            var next = try key.encryptCBC(c0, iv: zero)
            key = try SymmetricKey(derivedCipher, secret: SecretBytes(consuming: &next).prefix(derivedKeyLength))
        }
        return SecretBytes(output)
    }
}
