import COpenSSL
import Secrets

/// HMAC (RFC 2104) over one of `HashAlgorithm`'s functions, through libcrypto's `EVP_MAC`: the
/// validation server's session tokens (HMAC-SHA-256 with a tenant's secret). The key stays in
/// `SecretBytes`; libcrypto's copy lives in the context, which `EVP_MAC_CTX_free` cleanses.
public struct HMAC: Sendable {
    public let algorithm: HashAlgorithm
    private let key: SecretBytes

    /// An empty key is refused: `EVP_MAC_init` reads a missing key as "keep the previous one".
    public init(_ algorithm: HashAlgorithm, key: SecretBytes) throws(CryptoError) {
        guard key.count > 0 else { throw CryptoError(.invalidKeyLength, "an HMAC key must not be empty") }
        self.algorithm = algorithm
        self.key = key
    }

    /// The MAC of `message`, `algorithm.digestLength` bytes.
    public func authenticate<Bytes: Collection<UInt8>>(_ message: Bytes) throws(CryptoError) -> [UInt8] {
        guard let context = EVP_MAC_CTX_new(Self.fetchedHMAC.pointer) else {
            throw CryptoError(.libraryFailure, "EVP_MAC_CTX_new")
        }
        defer { EVP_MAC_CTX_free(context) }
        let initialized = algorithm.openSSLName.withCString { digestName in
            OSSL_MAC_PARAM_DIGEST.withCString { parameterName in
                var parameters = [
                    OSSL_PARAM_construct_utf8_string(parameterName, UnsafeMutablePointer(mutating: digestName), 0),
                    OSSL_PARAM_construct_end(),
                ]
                return key.withUnsafeBytes { key in
                    EVP_MAC_init(context, key.baseAddress?.assumingMemoryBound(to: UInt8.self), key.count, &parameters)
                }
            }
        }
        guard initialized == 1 else { throw CryptoError(.libraryFailure, openSSLErrorDescription("HMAC init")) }
        var mac = [UInt8](repeating: 0, count: algorithm.digestLength)
        var macLength = 0
        let succeeded = withContiguousBytes(of: message) { bytes in
            (bytes.isEmpty
                ? 1 : EVP_MAC_update(context, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count))
                == 1 && EVP_MAC_final(context, &mac, &macLength, mac.count) == 1
        }
        guard succeeded, macLength == mac.count else {
            throw CryptoError(.libraryFailure, openSSLErrorDescription("HMAC"))
        }
        return mac
    }

    private static let fetchedHMAC = FetchedAlgorithm.mac("HMAC")
}

extension HashAlgorithm {
    /// libcrypto's name of the digest, as `EVP_MD_fetch` and the HMAC parameter take it.
    var openSSLName: String {
        switch self {
        case .sha1: "SHA1"
        case .sha224: "SHA2-224"
        case .sha256: "SHA2-256"
        case .sha384: "SHA2-384"
        case .sha512: "SHA2-512"
        }
    }
}
