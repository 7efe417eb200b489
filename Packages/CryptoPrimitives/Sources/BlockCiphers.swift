import COpenSSL
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

    /// The CBC encryption of `plaintext`'s blocks, keeping only the last
    /// ciphertext block (the CBC-MAC chaining value).
    func lastCBCBlock(_ plaintext: UnsafeRawBufferPointer, iv: [UInt8]) throws -> [UInt8] {
        Array(try run(.cbc, plaintext, iv: iv, encrypt: true).suffix(cipher.blockSize))
    }

    @usableFromInline
    enum Mode { case cbc, ecb }

    @usableFromInline
    func run(_ mode: Mode, _ input: UnsafeRawBufferPointer, iv: [UInt8]?, encrypt: Bool) throws -> [UInt8] {
        let implementation = mode == .cbc ? cipher.implementations.cbc : cipher.implementations.ecb
        let blockSize = cipher.blockSize
        guard input.count % blockSize == 0 else {
            throw CryptoError(
                .invalidInputLength,
                "\(cipher) input of \(input.count) bytes is not a multiple of the \(blockSize)-byte block"
            )
        }
        guard input.count <= Int(Int32.max) - blockSize else {
            throw CryptoError(.invalidInputLength, "\(input.count) bytes is too much for one cipher call")
        }
        if let iv, iv.count != blockSize {
            throw CryptoError(.invalidInputLength, "\(cipher) IV must be \(blockSize) bytes, got \(iv.count)")
        }
        let slot: KeyedContextCache.CipherSlot =
            switch (mode, encrypt) {
            case (.cbc, true): .cbcEncrypt
            case (.cbc, false): .cbcDecrypt
            case (.ecb, true): .ecbEncrypt
            case (.ecb, false): .ecbDecrypt
            }
        var output = [UInt8](repeating: 0, count: input.count + blockSize)
        var written: Int32 = 0
        var finalWritten: Int32 = 0
        let make = { try makeCipherContext(implementation, encrypt: encrypt) }
        let succeeded = try cache.withCipherContext(slot, make: make) { context in
            // No cipher and no key: the context keeps both, and its padding setting, and takes the IV.
            guard EVP_CipherInit_ex2(context, nil, nil, iv, encrypt ? 1 : 0, nil) == 1 else {
                throw CryptoError(.libraryFailure, openSSLErrorDescription("\(cipher) initialization"))
            }
            return output.withUnsafeMutableBufferPointer { out in
                guard let outBase = out.baseAddress else { return false }
                if let inBase = input.baseAddress, input.count > 0,
                    EVP_CipherUpdate(
                        context,
                        outBase,
                        &written,
                        inBase.assumingMemoryBound(to: UInt8.self),
                        Int32(input.count)
                    ) != 1
                {
                    return false
                }
                return EVP_CipherFinal_ex(context, outBase + Int(written), &finalWritten) == 1
            }
        }
        guard succeeded else { throw CryptoError(.libraryFailure, openSSLErrorDescription("\(cipher) operation")) }
        output.removeLast(output.count - Int(written + finalWritten))
        return output
    }

    /// A cipher context keyed with this key for one mode and direction, padding off; `run` sets the IV
    /// per use.
    private func makeCipherContext(_ implementation: FetchedAlgorithm, encrypt: Bool) throws -> OpaquePointer {
        guard let context = EVP_CIPHER_CTX_new() else { throw CryptoError(.libraryFailure, "EVP_CIPHER_CTX_new") }
        let initialized = secret.withUnsafeBytes { key in
            EVP_CipherInit_ex2(
                context, implementation.pointer, key.baseAddress?.assumingMemoryBound(to: UInt8.self), nil,
                encrypt ? 1 : 0, nil)
        }
        guard initialized == 1, EVP_CIPHER_CTX_set_padding(context, 0) == 1 else {
            EVP_CIPHER_CTX_free(context)
            throw CryptoError(.libraryFailure, openSSLErrorDescription("\(cipher) initialization"))
        }
        return context
    }
}
