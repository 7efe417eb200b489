/// A source of random bytes: returns exactly `count` bytes or throws. Callers with their own generator
/// (a DRBG in CryptoPrimitives, a fixed script in tests) pass it to the key-generation helpers.
public typealias RandomBytes = @Sendable (_ count: Int) throws -> [UInt8]

/// The operating system's generator (`getrandom`, the same pool as /dev/urandom).
public let systemRandomBytes: RandomBytes = { count in
    var generator = SystemRandomNumberGenerator()
    var bytes = [UInt8](repeating: 0, count: count)
    var index = 0
    while index < count {
        var word = generator.next()
        for _ in 0..<8 where index < count {
            bytes[index] = UInt8(truncatingIfNeeded: word)
            word >>= 8
            index += 1
        }
    }
    return bytes
}
