import COpenSSL

/// Cryptographically secure random bytes from libcrypto's DRBG (seeded by the
/// operating system), for nonces, challenges and ephemeral keys.
public enum SecureRandom {
    /// The most bytes one call hands out; a caller asking for more has a bug.
    public static let maximumCount = 1 << 20

    public static func bytes(count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        try bytes.withUnsafeMutableBytes { try fill($0) }
        return bytes
    }

    static func fill(_ buffer: UnsafeMutableRawBufferPointer) throws {
        guard buffer.count <= maximumCount else {
            throw CryptoError(.invalidInputLength, "asked for \(buffer.count) random bytes, at most \(maximumCount)")
        }
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        guard RAND_bytes(base.assumingMemoryBound(to: UInt8.self), Int32(buffer.count)) == 1 else {
            throw CryptoError(.libraryFailure, "RAND_bytes failed")
        }
    }
}

/// Whether `lhs` and `rhs` hold the same bytes, in time that depends on their
/// lengths only (`CRYPTO_memcmp`). For MACs, cryptograms and tokens.
public func constantTimeEquals(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
    guard lhs.count == rhs.count else { return false }
    guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
    return CRYPTO_memcmp(left, right, lhs.count) == 0
}

/// Whether `lhs` and `rhs` hold the same bytes, in time that depends on their
/// lengths only.
@inlinable
public func constantTimeEquals<Left: Collection<UInt8>, Right: Collection<UInt8>>(_ lhs: Left, _ rhs: Right) -> Bool {
    withContiguousBytes(of: lhs) { left in withContiguousBytes(of: rhs) { right in constantTimeEquals(left, right) } }
}

/// Runs `body` on the bytes of `bytes` without copying when they are contiguous
/// (arrays, slices, `Data`), copying once otherwise. Inlinable, like the generic
/// entry points that use it, so callers in other modules get specialized code.
@inlinable
func withContiguousBytes<Bytes: Collection<UInt8>, Result>(
    of bytes: Bytes,
    _ body: (UnsafeRawBufferPointer) throws -> Result
) rethrows -> Result {
    if let result = try bytes.withContiguousStorageIfAvailable({ try body(UnsafeRawBufferPointer($0)) }) {
        return result
    }
    return try Array(bytes).withUnsafeBytes(body)
}
