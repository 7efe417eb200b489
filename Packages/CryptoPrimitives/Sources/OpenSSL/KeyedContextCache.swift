import COpenSSL
import Synchronization

/// libcrypto contexts keyed once per `SymmetricKey` and duplicated per use.
///
/// Keying a CMAC context looks its cipher up by name and expands the key, which
/// costs more than the MAC of a short SM message; `EVP_MAC_CTX_dup` of a keyed
/// template does neither. The template is built on first use, only ever read
/// afterwards (under the lock), and freed (libcrypto cleanses it) with the key.
final class KeyedContextCache: Sendable {
    private struct Template: @unchecked Sendable {
        let context: OpaquePointer
    }

    private let cmacTemplate = Mutex<Template?>(nil)

    init() {}

    deinit {
        cmacTemplate.withLock { template in
            if let template { EVP_MAC_CTX_free(template.context) }
        }
    }

    /// A fresh copy of the keyed CMAC context, made by `make` the first time.
    /// The caller frees it with `EVP_MAC_CTX_free`.
    func duplicateCMACContext(_ make: () throws -> OpaquePointer) throws -> OpaquePointer {
        try cmacTemplate.withLock { template throws -> Template in
            if template == nil { template = Template(context: try make()) }
            guard let template, let copy = EVP_MAC_CTX_dup(template.context) else {
                throw CryptoError(.libraryFailure, "EVP_MAC_CTX_dup")
            }
            return Template(context: copy)
        }.context
    }
}
