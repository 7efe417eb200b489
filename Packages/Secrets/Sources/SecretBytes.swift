import Glibc

/// Key material and other secrets (MRZ-derived seeds, session keys, nonces).
///
/// The bytes live in memory this value allocates itself, are wiped (`wipeMemory`) when the last
/// copy goes away, and never appear in a
/// `description` or a log. Copies of `SecretBytes` share one buffer, so
/// passing a secret around never leaves stray copies behind; only
/// `withUnsafeBytes` reveals the contents, and only for the duration of the call.
public struct SecretBytes: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// Owns the buffer. Immutable after `init`, so sharing it across threads is safe.
    private final class Storage: @unchecked Sendable {
        let buffer: UnsafeMutableRawBufferPointer

        init(count: Int) {
            buffer = .allocate(byteCount: max(count, 1), alignment: 16)
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
        }

        deinit {
            wipeMemory(buffer)
            buffer.deallocate()
        }
    }

    private let storage: Storage
    public let count: Int

    /// Copies `bytes` into wiped-on-release memory. The caller remains
    /// responsible for its own copy (see `init(consuming:)`).
    public init<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        count = bytes.count
        storage = Storage(count: count)
        UnsafeMutableRawBufferPointer(rebasing: storage.buffer[0..<count]).copyBytes(from: bytes)
    }

    /// Takes `bytes` and wipes the caller's array afterwards.
    public init(consuming bytes: inout [UInt8]) {
        self.init(bytes)
        bytes.wipe()
    }

    /// Fills `count` bytes inside the secret buffer, e.g. from a cipher or a hash.
    /// `body` receives the whole buffer and must initialize it completely.
    public init<Failure: Error>(
        count: Int, initializingWith body: (UnsafeMutableRawBufferPointer) throws(Failure) -> Void
    ) throws(Failure) {
        self.count = count
        storage = Storage(count: count)
        try body(UnsafeMutableRawBufferPointer(rebasing: storage.buffer[0..<count]))
    }

    /// `count` bytes from the operating system's generator (`RandomSource.system`).
    public static func random(count: Int) throws(SecretsError) -> SecretBytes {
        try RandomSource.system.bytes(count: count)
    }

    /// The bytes, for the duration of `body` only. Do not let them escape into
    /// ordinary arrays unless the caller wipes those too.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(rebasing: storage.buffer[0..<count]))
    }

    /// The first `length` bytes as a new secret.
    public func prefix(_ length: Int) -> SecretBytes {
        withUnsafeBytes { SecretBytes($0.prefix(length)) }
    }

    /// This secret followed by `other`, as a new secret (e.g. a key seed and a counter).
    public func appending(_ other: SecretBytes) -> SecretBytes {
        withUnsafeBytes { head in
            other.withUnsafeBytes { tail in
                SecretBytes(count: head.count + tail.count) { buffer in
                    buffer.copyMemory(from: head)
                    UnsafeMutableRawBufferPointer(rebasing: buffer[head.count...]).copyMemory(from: tail)
                }
            }
        }
    }

    /// Compares in time that depends on the lengths only.
    public static func == (lhs: SecretBytes, rhs: SecretBytes) -> Bool {
        lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { right in constantTimeEquals(left, right) } }
    }

    public var description: String { "SecretBytes(\(count) bytes, redacted)" }
    public var debugDescription: String { description }
    /// No children: `dump` and debuggers show the redacted description only.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension Array where Element == UInt8 {
    /// Overwrites every byte with zero in a way the optimizer cannot drop, then
    /// empties the array. For temporary copies of secrets.
    public mutating func wipe() {
        withUnsafeMutableBytes { wipeMemory($0) }
        removeAll()
    }
}

/// Zeroes `buffer` with `explicit_bzero`, which the compiler may not remove as a dead store: the
/// one wiping idiom of the tree (`SecretBytes`, `[UInt8].wipe()`).
func wipeMemory(_ buffer: UnsafeMutableRawBufferPointer) {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return }
    explicit_bzero(base, buffer.count)
}
