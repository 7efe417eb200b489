import COpenSSL
import CodedErrors
import Secrets

/// The hash functions ICAO 9303 uses (KDF, EF.SOD digests, signatures).
public enum HashAlgorithm: String, Sendable, Hashable, CaseIterable {
    case sha1, sha224, sha256, sha384, sha512

    /// Output length in bytes.
    public var digestLength: Int {
        switch self {
        case .sha1: 20
        case .sha224: 28
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// One-shot hash of `data`.
    @inlinable
    public func hash<Bytes: Collection<UInt8>>(_ data: Bytes) -> [UInt8] {
        withContiguousBytes(of: data) { hash(bytes: $0) }
    }

    /// `EVP_Digest` with the digest fetched once: one context made and freed inside libcrypto, no
    /// `IncrementalHash` object and no reset after the digest, and none of the implicit fetch that
    /// `EVP_sha512()`-style digests cost per call.
    @usableFromInline
    func hash(bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: digestLength)
        // Cannot fail for a software digest but by running out of memory.
        guard EVP_Digest(bytes.baseAddress, bytes.count, &digest, nil, fetched.pointer, nil) == 1 else {
            fatalError("EVP_Digest failed: out of memory")
        }
        return digest
    }

    var fetched: FetchedAlgorithm {
        switch self {
        case .sha1: Self.fetchedSHA1
        case .sha224: Self.fetchedSHA224
        case .sha256: Self.fetchedSHA256
        case .sha384: Self.fetchedSHA384
        case .sha512: Self.fetchedSHA512
        }
    }

    private static let fetchedSHA1 = FetchedAlgorithm.digest(HashAlgorithm.sha1.openSSLName)
    private static let fetchedSHA224 = FetchedAlgorithm.digest(HashAlgorithm.sha224.openSSLName)
    private static let fetchedSHA256 = FetchedAlgorithm.digest(HashAlgorithm.sha256.openSSLName)
    private static let fetchedSHA384 = FetchedAlgorithm.digest(HashAlgorithm.sha384.openSSLName)
    private static let fetchedSHA512 = FetchedAlgorithm.digest(HashAlgorithm.sha512.openSSLName)
}

/// A hash computed over data that arrives in pieces (a file read in chunks, a
/// MAC input assembled from parts). `finalize()` resets the context so the same
/// object (and its libcrypto `EVP_MD_CTX`) serves the next message: reuse one
/// per loop instead of creating one per message.
///
/// Not `Sendable`: one context belongs to one task at a time.
public final class IncrementalHash {
    public let algorithm: HashAlgorithm
    private let context: OpaquePointer

    public init(_ algorithm: HashAlgorithm) {
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new: out of memory") }
        self.algorithm = algorithm
        self.context = context
        reset()
    }

    deinit { EVP_MD_CTX_free(context) }

    @inlinable
    public func update<Bytes: Collection<UInt8>>(_ data: Bytes) {
        withContiguousBytes(of: data) { update($0) }
    }

    public func update(_ data: UnsafeRawBufferPointer) {
        guard let base = data.baseAddress, data.count > 0 else { return }
        // Cannot fail for an initialized software digest context.
        EVP_DigestUpdate(context, base, data.count)
    }

    /// The digest of everything passed to `update` since the last reset; the
    /// context starts over afterwards.
    public func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: algorithm.digestLength)
        EVP_DigestFinal_ex(context, &digest, nil)
        reset()
        return digest
    }

    /// Discards what was hashed so far.
    public func reset() {
        EVP_DigestInit_ex2(context, algorithm.fetched.pointer, nil)
    }
}
