import COpenSSL
import Synchronization

/// libcrypto contexts keyed once per `SymmetricKey` and reused for every operation under that key.
///
/// Keying a context looks its algorithm up and expands the key, and allocating and freeing one costs
/// more than the cipher or MAC of a short SM message: secure messaging runs two CMACs, two IV blocks and
/// one CBC pass per APDU. Each context is made on first use and afterwards only reset for the next
/// message (`EVP_MAC_init` and `EVP_CipherInit_ex2` with no key keep the expanded key), all under one
/// lock, so copies of a key used from several tasks never share a context mid-operation. libcrypto
/// cleanses the contexts when the key's last copy frees them.
final class KeyedContextCache: Sendable {
    /// The cipher contexts kept: one per mode and direction, and for a two-key 3DES key the
    /// single-DES CBC encryption under its first half that the retail MAC chains with.
    enum CipherSlot: Int, CaseIterable {
        case cbcEncrypt, cbcDecrypt, ecbEncrypt, ecbDecrypt, retailMACChaining
    }

    private struct Contexts: @unchecked Sendable {
        var cmac: OpaquePointer?
        var ciphers = [OpaquePointer?](repeating: nil, count: CipherSlot.allCases.count)
    }

    private let contexts = Mutex(Contexts())

    init() {}

    deinit {
        contexts.withLock { contexts in
            if let cmac = contexts.cmac { EVP_MAC_CTX_free(cmac) }
            for case let cipher? in contexts.ciphers { EVP_CIPHER_CTX_free(cipher) }
        }
    }

    /// Runs `body` on the keyed CMAC context, reset for a new message; `make` keys it the first time.
    func withCMACContext<Result>(
        make: () throws -> OpaquePointer, _ body: (OpaquePointer) throws -> Result
    ) throws -> Result {
        try contexts.withLock { contexts throws -> Result in
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

    /// Runs `body` on the keyed cipher context of `slot` (`make` keys it the first time); `body`
    /// re-initialises it with its IV, which keeps the expanded key.
    func withCipherContext<Result>(
        _ slot: CipherSlot, make: () throws -> OpaquePointer, _ body: (OpaquePointer) throws -> Result
    ) throws -> Result {
        try contexts.withLock { contexts throws -> Result in
            let context: OpaquePointer
            if let existing = contexts.ciphers[slot.rawValue] {
                context = existing
            } else {
                context = try make()
                contexts.ciphers[slot.rawValue] = context
            }
            return try body(context)
        }
    }
}
