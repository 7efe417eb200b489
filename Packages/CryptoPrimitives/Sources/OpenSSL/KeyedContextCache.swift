import COpenSSL
import Synchronization

/// libcrypto contexts keyed once per `SymmetricKey` and reused for every operation under that key.
///
/// Keying a context looks its algorithm up and expands the key, and allocating and freeing one costs
/// more than the cipher or MAC of a short SM message: secure messaging runs two MACs, two IV blocks and
/// one CBC pass per APDU. Each context is made on first use and never re-initialised afterwards: even
/// a reset (`EVP_CipherInit_ex2` with no key, only an IV) walks libcrypto's parameter lookup and costs
/// more than encrypting a short message. An ECB context has no state between whole blocks; a CBC
/// context's only state is its chaining value, which `CipherContext.chain` follows, so a message under
/// any IV starts by xoring the difference into its first block. Everything is used under one lock, so
/// copies of a key used from several tasks never share a context mid-operation. libcrypto cleanses the
/// contexts, and `deinit` the CMAC subkey, when the key's last copy frees them.
final class KeyedContextCache: Sendable {
    /// The cipher contexts kept: one per mode and direction, and for a two-key 3DES key the
    /// single-DES CBC encryption under its first half that the retail MAC chains with.
    enum CipherSlot: CaseIterable {
        case cbcEncrypt, cbcDecrypt, ecbEncrypt, ecbDecrypt, retailMACChaining
    }

    /// A keyed cipher context and its CBC chaining value (meaningless for ECB).
    struct CipherContext {
        let pointer: OpaquePointer
        /// The IV the context applies to its next block: zero when made, then the last ciphertext
        /// block it wrote (encryption) or read (decryption), bytes in memory order.
        var chain: (UInt64, UInt64) = (0, 0)
    }

    struct Contexts: @unchecked Sendable {
        /// OpenSSL's CMAC, for `cmac(_:truncatedTo:)` over messages of any length.
        var cmac: OpaquePointer?
        private var cbcEncrypt: CipherContext?
        private var cbcDecrypt: CipherContext?
        private var ecbEncrypt: CipherContext?
        private var ecbDecrypt: CipherContext?
        private var retailMACChaining: CipherContext?
        /// The AES-CMAC subkey K1 (NIST SP 800-38B), for the secure messaging MAC whose padded
        /// message always ends in a complete block.
        var cmacSubkey: (UInt64, UInt64)?

        /// The context of each slot, in fields rather than an array: read and written back on
        /// every operation, without an array's bounds and uniqueness checks.
        private subscript(slot: CipherSlot) -> CipherContext? {
            get {
                switch slot {
                case .cbcEncrypt: cbcEncrypt
                case .cbcDecrypt: cbcDecrypt
                case .ecbEncrypt: ecbEncrypt
                case .ecbDecrypt: ecbDecrypt
                case .retailMACChaining: retailMACChaining
                }
            }
            set {
                switch slot {
                case .cbcEncrypt: cbcEncrypt = newValue
                case .cbcDecrypt: cbcDecrypt = newValue
                case .ecbEncrypt: ecbEncrypt = newValue
                case .ecbDecrypt: ecbDecrypt = newValue
                case .retailMACChaining: retailMACChaining = newValue
                }
            }
        }

        /// The context of `slot`, made by `make` the first time.
        mutating func context(_ slot: CipherSlot, make: () throws -> OpaquePointer) rethrows -> CipherContext {
            if let existing = self[slot] { return existing }
            let made = CipherContext(pointer: try make())
            self[slot] = made
            return made
        }

        /// Records where `context`'s chain stands after an operation.
        mutating func update(_ slot: CipherSlot, _ context: CipherContext) {
            self[slot] = context
        }

        /// Frees the context of `slot` after a failed operation left its state unknown; the next
        /// use makes a fresh one.
        mutating func discard(_ slot: CipherSlot) {
            if let context = self[slot] { EVP_CIPHER_CTX_free(context.pointer) }
            self[slot] = nil
        }

        fileprivate mutating func freeAll() {
            if let cmac { EVP_MAC_CTX_free(cmac) }
            for slot in CipherSlot.allCases { discard(slot) }
            if cmacSubkey != nil {
                withUnsafeMutableBytes(of: &cmacSubkey) { OPENSSL_cleanse($0.baseAddress, $0.count) }
            }
        }
    }

    private let contexts = Mutex(Contexts())

    init() {}

    deinit {
        contexts.withLock { $0.freeAll() }
    }

    /// Runs `body` on the contexts under the lock.
    func withContexts<Result>(_ body: (inout Contexts) throws -> Result) throws -> Result {
        try contexts.withLock { contexts throws -> Result in try body(&contexts) }
    }

    /// Runs `body` on the keyed CMAC context, reset for a new message; `make` keys it the first time.
    func withCMACContext<Result>(
        make: () throws -> OpaquePointer, _ body: (OpaquePointer) throws -> Result
    ) throws -> Result {
        try withContexts { contexts throws -> Result in
            let context: OpaquePointer
            if let existing = contexts.cmac {
                guard EVP_MAC_init(existing, nil, 0, nil) == 1 else {
                    throw CryptoError(.libraryFailure, openSSLErrorDescription("CMAC reset"))
                }
                context = existing
            } else {
                context = try make()
                contexts.cmac = context
            }
            return try body(context)
        }
    }
}
