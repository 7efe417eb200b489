import CryptoPrimitives
import ICAO
import Secrets

/// R(s, t) of PACE's Integrated Mapping (ICAO 9303-11 §4.4.3.3.2): the block cipher in CBC mode
/// with a zero IV, keyed first by the terminal's nonce t over the chip's nonce s, then by each
/// derived key (truncated to the key length) over the constants c0 (next key) and c1 (output),
/// until the output holds at least 64 bits more than the field prime.
enum PACEPseudoRandomFunction {
    /// c0 and c1 for a 128-bit nonce.
    static let shortConstants: (next: [UInt8], output: [UInt8]) = (
        [0xA6, 0x68, 0x89, 0x2A, 0x7C, 0x41, 0xE3, 0xCA, 0x73, 0x9F, 0x40, 0xB0, 0x57, 0xD8, 0x59, 0x04],
        [0xA4, 0xE1, 0x36, 0xAC, 0x72, 0x5F, 0x73, 0x8B, 0x01, 0xC1, 0xF6, 0x02, 0x17, 0xC1, 0x88, 0xAD]
    )
    /// c0 and c1 for a 256-bit nonce.
    static let longConstants: (next: [UInt8], output: [UInt8]) = (
        [
            0xD4, 0x63, 0xD6, 0x52, 0x34, 0x12, 0x4E, 0xF7, 0x89, 0x70, 0x54, 0x98, 0x6D, 0xCA, 0x0A, 0x17,
            0x4E, 0x28, 0xDF, 0x75, 0x8C, 0xBA, 0xA0, 0x3F, 0x24, 0x06, 0x16, 0x41, 0x4D, 0x5A, 0x16, 0x76,
        ],
        [
            0x54, 0xBD, 0x72, 0x55, 0xF0, 0xAA, 0xF8, 0x31, 0xBE, 0xC3, 0x42, 0x3F, 0xCF, 0x39, 0xD6, 0x9B,
            0x6C, 0xBF, 0x06, 0x66, 0x77, 0xD0, 0xFA, 0xAE, 0x5A, 0xAD, 0xD9, 0x9D, 0xF8, 0xE5, 0x35, 0x17,
        ]
    )

    /// The length of t in bytes: the cipher's key length (3DES counts as 128 bits).
    static func terminalNonceLength(_ cipher: BlockCipher) -> Int { cipher.keyLength }

    /// x1‖…‖xn for the nonces s and t, n the least with n·l ≥ `fieldBits` + 64, l the length of s
    /// (128 or 256 bits), which picks c0 and c1. Each derived key is E's output cut to the key
    /// length; an output shorter than the key (s of one block under AES-192/256) keys AES of its
    /// own length.
    static func output(nonce: SecretBytes, terminalNonce: [UInt8], cipher: BlockCipher, fieldBits: Int) throws
        -> [UInt8]
    {
        guard nonce.count == 16 || nonce.count == 32 else {
            throw ChipSimulatorError("R(s, t) takes a nonce of 16 or 32 bytes, not \(nonce.count)")
        }
        let constants = nonce.count == 32 ? longConstants : shortConstants
        let stepKeyLength = min(nonce.count, cipher.keyLength)
        guard let stepCipher = cipher == .tripleDES ? .tripleDES : BlockCipher(aesKeyLength: stepKeyLength) else {
            throw ChipSimulatorError("no cipher for a \(stepKeyLength)-byte key")
        }
        let blockBits = constants.output.count * 8
        let count = (fieldBits + 64 + blockBits - 1) / blockBits
        let zeroIV = [UInt8](repeating: 0, count: cipher.blockSize)
        var key = try nonce.withUnsafeBytes { s in
            try SymmetricKey(cipher, bytes: terminalNonce).encryptCBC(s, iv: zeroIV)
        }
        defer { key.wipe() }
        var result: [UInt8] = []
        for _ in 0..<count {
            let stepKey = try SymmetricKey(stepCipher, bytes: key.prefix(stepKeyLength))
            result += try stepKey.encryptCBC(constants.output, iv: zeroIV)
            key.wipe()
            key = try stepKey.encryptCBC(constants.next, iv: zeroIV)
        }
        return result
    }
}
