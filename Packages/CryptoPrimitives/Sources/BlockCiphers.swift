import COpenSSL
import CodedErrors
import ICAO
import Secrets

extension BlockCipher {
    /// CBC and ECB implementations of this cipher in libcrypto's default
    /// provider (two-key 3DES is `DES-EDE`, which the default provider keeps).
    fileprivate var implementations: Implementations {
        switch self {
        case .tripleDES: Self.tripleDESImplementations
        case .aes128: Self.aes128Implementations
        case .aes192: Self.aes192Implementations
        case .aes256: Self.aes256Implementations
        }
    }

    fileprivate struct Implementations: Sendable {
        let cbc: FetchedAlgorithm
        let ecb: FetchedAlgorithm

        init(_ cbcName: String, _ ecbName: String) {
            cbc = .cipher(cbcName)
            ecb = .cipher(ecbName)
        }
    }

    private static let tripleDESImplementations = Implementations("DES-EDE-CBC", "DES-EDE-ECB")
    private static let aes128Implementations = Implementations("AES-128-CBC", "AES-128-ECB")
    private static let aes192Implementations = Implementations("AES-192-CBC", "AES-192-ECB")
    private static let aes256Implementations = Implementations("AES-256-CBC", "AES-256-ECB")
}

/// A key for one block cipher. The key bytes are `SecretBytes`: wiped when the
/// last copy is released, redacted in descriptions.
///
/// All operations work on whole blocks without padding: callers pad (ISO/IEC
/// 7816-4, `ISO7816Padding`) where their protocol says so.
public struct SymmetricKey: Sendable, Equatable, CustomStringConvertible {
    public let cipher: BlockCipher
    public let secret: SecretBytes
    /// libcrypto state derived from the key once and shared by copies of the key.
    let cache = KeyedContextCache()

    /// Throws `invalidKeyLength` unless `secret` has `cipher.keyLength` bytes.
    public init(_ cipher: BlockCipher, secret: SecretBytes) throws {
        guard secret.count == cipher.keyLength else {
            throw CryptoError(.invalidKeyLength, "\(cipher) needs a \(cipher.keyLength)-byte key, got \(secret.count)")
        }
        self.cipher = cipher
        self.secret = secret
    }

    /// Copies `bytes` into secret storage (the caller wipes its own copy).
    public init<Bytes: Collection<UInt8>>(_ cipher: BlockCipher, bytes: Bytes) throws {
        try self.init(cipher, secret: SecretBytes(bytes))
    }

    public var description: String { "SymmetricKey(\(cipher), redacted)" }

    public static func == (lhs: SymmetricKey, rhs: SymmetricKey) -> Bool {
        lhs.cipher == rhs.cipher && lhs.secret == rhs.secret
    }

    @inlinable
    public func encryptCBC<Bytes: Collection<UInt8>>(_ plaintext: Bytes, iv: [UInt8]) throws -> [UInt8] {
        try withContiguousBytes(of: plaintext) { try run(.cbc, $0, iv: iv, encrypt: true) }
    }

    @inlinable
    public func decryptCBC<Bytes: Collection<UInt8>>(_ ciphertext: Bytes, iv: [UInt8]) throws -> [UInt8] {
        try withContiguousBytes(of: ciphertext) { try run(.cbc, $0, iv: iv, encrypt: false) }
    }

    @inlinable
    public func encryptECB<Bytes: Collection<UInt8>>(_ plaintext: Bytes) throws -> [UInt8] {
        try withContiguousBytes(of: plaintext) { try run(.ecb, $0, iv: nil, encrypt: true) }
    }

    @inlinable
    public func decryptECB<Bytes: Collection<UInt8>>(_ ciphertext: Bytes) throws -> [UInt8] {
        try withContiguousBytes(of: ciphertext) { try run(.ecb, $0, iv: nil, encrypt: false) }
    }

    /// CBC over whole blocks from `input` into `output` (the same memory or apart, the same
    /// size), with an explicit IV, allocating nothing: the per-message path of secure messaging,
    /// which encrypts in place in the buffer it sends and decrypts straight out of the answer.
    public func cbc(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, iv: UnsafeRawBufferPointer,
        encrypt: Bool
    ) throws {
        try process(.cbc, input, into: output, iv: iv, encrypt: encrypt)
    }

    /// ECB encryption of whole blocks from `input` into `output` (same size), allocating nothing:
    /// an AES secure messaging IV, E(KSenc, SSC), is one such block.
    public func encryptECB(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws {
        try process(.ecb, input, into: output, iv: nil, encrypt: true)
    }

    @usableFromInline
    enum Mode { case cbc, ecb }

    @usableFromInline
    func run(_ mode: Mode, _ input: UnsafeRawBufferPointer, iv: [UInt8]?, encrypt: Bool) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: input.count)
        try output.withUnsafeMutableBytes { out in
            if let iv {
                try iv.withUnsafeBytes { try process(mode, input, into: out, iv: $0, encrypt: encrypt) }
            } else {
                try process(mode, input, into: out, iv: nil, encrypt: encrypt)
            }
        }
        return output
    }

    /// The one call into libcrypto's block ciphers: checks the sizes and runs the cached context of
    /// the mode and direction over the blocks, without re-initialising it (`KeyedContextCache`).
    /// CBC starts from `iv` by xoring `iv` and the context's chaining value into the first plaintext
    /// block (encryption, in `output`) or the first decrypted block (decryption), which is what a
    /// context re-initialised with `iv` would compute. Whole blocks with padding off leave nothing
    /// for `EVP_CipherFinal_ex` to do, so it is not called.
    private func process(
        _ mode: Mode, _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
        iv: UnsafeRawBufferPointer?, encrypt: Bool
    ) throws {
        let blockSize = cipher.blockSize
        guard input.count % blockSize == 0 else {
            throw CryptoError(
                .invalidInputLength,
                "\(cipher) input of \(input.count) bytes is not a multiple of the \(blockSize)-byte block"
            )
        }
        guard output.count == input.count else {
            throw CryptoError(
                .invalidInputLength, "\(input.count) bytes of \(cipher) input for \(output.count) of output")
        }
        guard input.count <= Int(Int32.max) - blockSize else {
            throw CryptoError(.invalidInputLength, "\(input.count) bytes is too much for one cipher call")
        }
        if let iv, iv.count != blockSize {
            throw CryptoError(.invalidInputLength, "\(cipher) IV must be \(blockSize) bytes, got \(iv.count)")
        }
        if mode == .cbc, iv == nil {
            throw CryptoError(.invalidParameter, "\(cipher) CBC without an IV")
        }
        guard let inBase = input.baseAddress, let outBase = output.baseAddress, input.count > 0 else { return }
        let slot: KeyedContextCache.CipherSlot =
            switch (mode, encrypt) {
            case (.cbc, true): .cbcEncrypt
            case (.cbc, false): .cbcDecrypt
            case (.ecb, true): .ecbEncrypt
            case (.ecb, false): .ecbDecrypt
            }
        func make() throws -> OpaquePointer { try makeCipherContext(slot) }
        let succeeded = try cache.withContexts { contexts in
            var context = try contexts.context(slot, make: make)
            var start: (UInt64, UInt64) = (0, 0)
            if let iv { start = xored(context.chain, load(iv.baseAddress, blockSize)) }
            let last = input.count - blockSize
            if mode == .cbc, encrypt {
                if outBase != inBase { output.copyMemory(from: input) }
                xorBlock(outBase, start, blockSize)
            }
            // Decryption chains on from the last ciphertext block, read before an in-place call overwrites it.
            let decryptionChain = load(inBase + last, blockSize)
            var written: Int32 = 0
            let updated =
                EVP_CipherUpdate(
                    context.pointer, outBase.assumingMemoryBound(to: UInt8.self), &written,
                    (mode == .cbc && encrypt ? UnsafeRawPointer(outBase) : inBase).assumingMemoryBound(to: UInt8.self),
                    Int32(input.count)) == 1 && Int(written) == input.count
            guard updated else {
                contexts.discard(slot)
                return false
            }
            if mode == .cbc {
                if encrypt {
                    context.chain = load(outBase + last, blockSize)
                } else {
                    xorBlock(outBase, start, blockSize)
                    context.chain = decryptionChain
                }
                contexts.update(slot, context)
            }
            return true
        }
        guard succeeded else { throw CryptoError(.libraryFailure, openSSLErrorDescription("\(cipher) operation")) }
    }

    /// A cipher context keyed for `slot`, padding off, CBC from a zero IV.
    func makeCipherContext(_ slot: KeyedContextCache.CipherSlot) throws -> OpaquePointer {
        let implementations = cipher.implementations
        let (implementation, encrypt, key): (FetchedAlgorithm, Bool, SecretBytes) =
            switch slot {
            case .cbcEncrypt: (implementations.cbc, true, secret)
            case .cbcDecrypt: (implementations.cbc, false, secret)
            case .ecbEncrypt: (implementations.ecb, true, secret)
            case .ecbDecrypt: (implementations.ecb, false, secret)
            case .retailMACChaining: (implementations.cbc, true, secret.prefix(8).appending(secret.prefix(8)))
            }
        guard let context = EVP_CIPHER_CTX_new() else { throw CryptoError(.libraryFailure, "EVP_CIPHER_CTX_new") }
        // CBC contexts start from a zero IV, the chaining value `CipherContext` begins with.
        let zero: (UInt64, UInt64) = (0, 0)
        let initialized = key.withUnsafeBytes { key in
            withUnsafeBytes(of: zero) { zeroIV in
                EVP_CipherInit_ex2(
                    context, implementation.pointer, key.baseAddress?.assumingMemoryBound(to: UInt8.self),
                    slot == .ecbEncrypt || slot == .ecbDecrypt
                        ? nil : zeroIV.baseAddress?.assumingMemoryBound(to: UInt8.self),
                    encrypt ? 1 : 0, nil)
            }
        }
        guard initialized == 1, EVP_CIPHER_CTX_set_padding(context, 0) == 1 else {
            EVP_CIPHER_CTX_free(context)
            throw CryptoError(.libraryFailure, openSSLErrorDescription("\(cipher) initialization"))
        }
        return context
    }
}

/// The first `blockSize` (8 or 16) bytes at `pointer` as two words in memory order (the second zero
/// for 8), a cipher block that `xorBlock` and `xored` combine without caring for byte order.
@inline(__always)
func load(_ pointer: UnsafeRawPointer?, _ blockSize: Int) -> (UInt64, UInt64) {
    guard let pointer else { return (0, 0) }
    return (
        pointer.loadUnaligned(as: UInt64.self),
        blockSize == 16 ? pointer.loadUnaligned(fromByteOffset: 8, as: UInt64.self) : 0
    )
}

/// Xors `block` into the first `blockSize` bytes at `pointer`.
@inline(__always)
func xorBlock(_ pointer: UnsafeMutableRawPointer, _ block: (UInt64, UInt64), _ blockSize: Int) {
    pointer.storeBytes(of: pointer.loadUnaligned(as: UInt64.self) ^ block.0, as: UInt64.self)
    if blockSize == 16 {
        pointer.storeBytes(
            of: pointer.loadUnaligned(fromByteOffset: 8, as: UInt64.self) ^ block.1, toByteOffset: 8, as: UInt64.self)
    }
}

@inline(__always)
func xored(_ a: (UInt64, UInt64), _ b: (UInt64, UInt64)) -> (UInt64, UInt64) { (a.0 ^ b.0, a.1 ^ b.1) }
