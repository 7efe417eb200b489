import Glibc

/// Where every protocol takes its nonces, challenges and ephemeral private keys from: secret
/// bytes, wiped when released. `system` reads the kernel's generator; tests that replay a
/// published worked example pass a source that hands out the example's fixed bytes.
public struct RandomSource: Sendable {
    /// The most bytes one call hands out; a caller asking for more has a bug.
    public static let maximumCount = 1 << 20

    private let generate: @Sendable (Int) throws(SecretsError) -> SecretBytes

    /// A source that returns `generate(count)`; it must return exactly `count` bytes.
    public init(_ generate: @escaping @Sendable (_ count: Int) throws(SecretsError) -> SecretBytes) {
        self.generate = generate
    }

    /// Exactly `count` bytes; a source that returns another count is an error, never a short key.
    public func bytes(count: Int) throws(SecretsError) -> SecretBytes {
        guard (0...Self.maximumCount).contains(count) else {
            throw SecretsError(.invalidCount, "asked for \(count) random bytes, at most \(Self.maximumCount)")
        }
        let bytes = try generate(count)
        guard bytes.count == count else {
            throw SecretsError(.invalidCount, "the random source gave \(bytes.count) bytes, \(count) were asked for")
        }
        return bytes
    }

    /// The kernel's generator: Swift's `SystemRandomNumberGenerator`, which reads `getrandom(2)`
    /// (the pool behind /dev/urandom) and traps rather than return weak bytes. Its words go
    /// straight into the secret buffer.
    public static let system = RandomSource { (count) throws(SecretsError) in
        SecretBytes(count: count) { buffer in
            var generator = SystemRandomNumberGenerator()
            var index = 0
            while index < buffer.count {
                var word = generator.next()
                for _ in 0..<8 where index < buffer.count {
                    buffer[index] = UInt8(truncatingIfNeeded: word)
                    word >>= 8
                    index += 1
                }
                word = 0
            }
        }
    }

    /// Hands out `script` in order, for tests that replay worked examples; asking for more than
    /// is left is an error.
    public static func replaying(_ script: [UInt8]) -> RandomSource {
        let remaining = ScriptedBytes(script)
        return RandomSource { (count) throws(SecretsError) in try remaining.take(count) }
    }
}

/// The rest of a scripted random source, shared by the copies of the source.
private final class ScriptedBytes: @unchecked Sendable {
    // Guarded by `lock`.
    private var bytes: [UInt8]
    private var lock = pthread_mutex_t()

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        pthread_mutex_init(&lock, nil)
    }

    deinit {
        bytes.wipe()
        pthread_mutex_destroy(&lock)
    }

    func take(_ count: Int) throws(SecretsError) -> SecretBytes {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        guard count <= bytes.count else {
            throw SecretsError(
                .invalidCount, "the scripted random source has \(bytes.count) bytes left, \(count) asked")
        }
        let taken = SecretBytes(bytes.prefix(count))
        bytes.removeFirst(count)
        return taken
    }
}
