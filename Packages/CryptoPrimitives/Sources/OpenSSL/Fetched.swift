import COpenSSL

/// An algorithm implementation fetched from libcrypto's default provider once per
/// process. OpenSSL 3 documents fetched `EVP_MD`/`EVP_CIPHER`/`EVP_MAC` objects as
/// immutable and safe to share between threads; fetching explicitly avoids the
/// implicit fetch that `EVP_sha256()`-style objects do on every use (the reason
/// one-shot `EVP_Digest` per small message is slow).
struct FetchedAlgorithm: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Stops the process when libcrypto lacks an algorithm every OpenSSL 3 default
    /// provider has: a broken installation, not a condition input can cause.
    init(_ fetch: (UnsafePointer<CChar>) -> OpaquePointer?, name: String) {
        guard let pointer = name.withCString(fetch) else {
            fatalError("libcrypto's default provider has no \(name); the OpenSSL installation is broken")
        }
        self.pointer = pointer
    }

    static func digest(_ name: String) -> FetchedAlgorithm {
        FetchedAlgorithm({ EVP_MD_fetch(nil, $0, nil) }, name: name)
    }

    static func cipher(_ name: String) -> FetchedAlgorithm {
        FetchedAlgorithm({ EVP_CIPHER_fetch(nil, $0, nil) }, name: name)
    }

    static func mac(_ name: String) -> FetchedAlgorithm {
        FetchedAlgorithm({ EVP_MAC_fetch(nil, $0, nil) }, name: name)
    }
}

/// The most recent libcrypto error as text, for `CryptoError.reason`.
func openSSLErrorDescription(_ operation: String) -> String {
    let code = ERR_get_error()
    ERR_clear_error()
    guard code != 0 else { return "\(operation) failed" }
    var buffer = [CChar](repeating: 0, count: 256)
    ERR_error_string_n(code, &buffer, buffer.count)
    return
        "\(operation) failed: \(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))"
}
