import ICAO
import Secrets

/// The key derivation function of ICAO Doc 9303-11 §9.7.1:
/// `KDF(K, c) = H(K || [nonce] || c)` with a 32-bit big-endian counter `c`,
/// truncated to the cipher's key length. H is SHA-1 for 3DES and AES-128 and
/// SHA-256 for AES-192/256; 3DES keys get DES odd parity. The optional nonce is
/// Chip Authentication v2's `r` (BSI TR-03110); BAC, PACE and CA v1 pass none.
public enum ICAOKeyDerivation {
    /// The counter values 9303-11 defines.
    public enum Purpose: UInt32, Sendable {
        case encryption = 1
        case mac = 2
        /// K_π, the PACE password key.
        case password = 3
    }

    public static func deriveKey(
        from sharedSecret: SecretBytes,
        nonce: [UInt8] = [],
        purpose: Purpose,
        cipher: BlockCipher
    ) -> SymmetricKey {
        let hashAlgorithm: HashAlgorithm = (cipher == .aes192 || cipher == .aes256) ? .sha256 : .sha1
        let hasher = IncrementalHash(hashAlgorithm)
        sharedSecret.withUnsafeBytes { hasher.update($0) }
        hasher.update(nonce)
        let counter = purpose.rawValue
        hasher.update([
            UInt8(counter >> 24), UInt8(truncatingIfNeeded: counter >> 16), UInt8(truncatingIfNeeded: counter >> 8),
            UInt8(truncatingIfNeeded: counter),
        ])
        var digest = hasher.finalize()
        defer { digest.wipe() }
        var keyBytes = Array(digest.prefix(cipher.keyLength))
        if cipher == .tripleDES {
            for index in keyBytes.indices { keyBytes[index] = withDESParity(keyBytes[index]) }
        }
        // The lengths match by construction: SHA-1 gives 20 ≥ 16 bytes, SHA-256 32 ≥ 24/32.
        guard let key = try? SymmetricKey(cipher, secret: SecretBytes(consuming: &keyBytes)) else {
            fatalError("KDF output shorter than a \(cipher) key")
        }
        return key
    }
}

/// `byte` with its least significant bit set so that it has an odd number of
/// one bits (the DES key parity rule).
public func withDESParity(_ byte: UInt8) -> UInt8 {
    let high = byte & 0xFE
    return high.nonzeroBitCount % 2 == 0 ? high | 1 : high
}
