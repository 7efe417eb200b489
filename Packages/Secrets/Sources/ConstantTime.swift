/// Whether `lhs` and `rhs` hold the same bytes, in time that depends on their lengths only: every
/// byte pair is visited and the differences are OR-ed together, so no early exit tells an attacker
/// where a MAC, a token or a password first differs.
public func constantTimeEquals(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
    guard lhs.count == rhs.count else { return false }
    var difference: UInt8 = 0
    for index in 0..<lhs.count { difference |= lhs[index] ^ rhs[index] }
    return difference == 0
}

/// Whether `lhs` and `rhs` hold the same bytes, in time that depends on their lengths only.
@inlinable
public func constantTimeEquals<Left: Collection<UInt8>, Right: Collection<UInt8>>(_ lhs: Left, _ rhs: Right) -> Bool {
    withContiguousBytes(of: lhs) { left in withContiguousBytes(of: rhs) { right in constantTimeEquals(left, right) } }
}

/// Runs `body` on the bytes of `bytes` without copying when they are contiguous (arrays, slices),
/// copying once otherwise. Inlinable, like the generic entry points that use it, so callers in
/// other modules get specialized code.
@inlinable
public func withContiguousBytes<Bytes: Collection<UInt8>, Result>(
    of bytes: Bytes,
    _ body: (UnsafeRawBufferPointer) throws -> Result
) rethrows -> Result {
    if let result = try bytes.withContiguousStorageIfAvailable({ try body(UnsafeRawBufferPointer($0)) }) {
        return result
    }
    return try Array(bytes).withUnsafeBytes(body)
}
