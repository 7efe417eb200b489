import COpenSSL
import Secrets

/// An RSA private key and its signatures (PKCS#1 v1.5, PSS): a terminal's key for Terminal
/// Authentication and the test PKI's certificate signatures. Held in a libcrypto `EVP_PKEY`, whose
/// RSA parameters libcrypto clears when the last copy of this value frees it; never printed.
public struct RSAPrivateKey: Sendable, CustomStringConvertible, CustomReflectable {
    private final class Storage: @unchecked Sendable {
        let key: OpaquePointer
        init(_ key: OpaquePointer) { self.key = key }
        deinit { EVP_PKEY_free(key) }
    }

    private let storage: Storage
    /// The size of the modulus in bits.
    public let modulusBits: Int

    /// A fresh key with public exponent 65537 (1024 to 4096 bits).
    public static func generate(bits: Int) throws(CryptoError) -> RSAPrivateKey {
        guard (1024...4096).contains(bits) else { throw CryptoError(.invalidParameter, "an RSA key of \(bits) bits") }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else {
            throw CryptoError(.libraryFailure, "no RSA key context")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) == 1,
            EVP_PKEY_generate(context, &key) == 1, let key
        else { throw CryptoError(.libraryFailure, openSSLErrorDescription("generating an RSA key")) }
        return RSAPrivateKey(key)
    }

    /// A key from DER (PKCS#8 PrivateKeyInfo or PKCS#1 RSAPrivateKey); trailing bytes and other
    /// key types are refused.
    public init(privateKeyDER der: [UInt8]) throws(CryptoError) {
        guard der.count <= 16384 else { throw CryptoError(.invalidInputLength, "a private key of \(der.count) bytes") }
        let decoded: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            guard let start = buffer.baseAddress, let key = d2i_AutoPrivateKey(nil, &cursor, buffer.count) else {
                return nil
            }
            guard cursor == start + buffer.count, EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA,
                EVP_PKEY_get_bits(key) <= Int32(RSAPublicKey.maximumModulusBits)
            else {
                EVP_PKEY_free(key)
                return nil
            }
            return key
        }
        ERR_clear_error()
        guard let decoded else { throw CryptoError(.invalidParameter, "not a DER RSA private key") }
        self.init(decoded)
    }

    private init(_ key: OpaquePointer) {
        storage = Storage(key)
        modulusBits = Int(EVP_PKEY_get_bits(key))
    }

    /// The modulus and public exponent, big-endian unsigned.
    public var publicNumbers: (modulus: [UInt8], exponent: [UInt8]) {
        (parameter("n"), parameter("e"))
    }

    /// The key as PKCS#8 PrivateKeyInfo DER, wiped when released: what `emrtd cvc` writes to a file.
    public func pkcs8DER() throws(CryptoError) -> SecretBytes {
        guard let info = EVP_PKEY2PKCS8(storage.key) else {
            throw CryptoError(.libraryFailure, openSSLErrorDescription("PKCS#8 encoding"))
        }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        var out: UnsafeMutablePointer<UInt8>?
        let length = i2d_PKCS8_PRIV_KEY_INFO(info, &out)
        guard length > 0, let out else { throw CryptoError(.libraryFailure, openSSLErrorDescription("PKCS#8 DER")) }
        defer { CRYPTO_clear_free(out, Int(length), #fileID, #line) }
        return SecretBytes(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    /// The signature of `message` (hashed here with `padding.hash`), `modulusBits / 8` bytes.
    public func sign<Bytes: Collection<UInt8>>(_ message: Bytes, padding: RSASignaturePadding) throws(CryptoError)
        -> [UInt8]
    {
        let digest = padding.hash.hash(message)
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, storage.key, nil) else {
            throw CryptoError(.libraryFailure, "EVP_PKEY_CTX_new_from_pkey")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_sign_init(context) == 1,
            EVP_PKEY_CTX_set_signature_md(context, padding.hash.fetched.pointer) == 1
        else { throw CryptoError(.libraryFailure, openSSLErrorDescription("RSA sign init")) }
        switch padding {
        case .pkcs1v15:
            guard EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) == 1 else {
                throw CryptoError(.invalidParameter, openSSLErrorDescription("PKCS#1 v1.5 padding"))
            }
        case .pss(_, let mgf1Hash, let saltLength):
            guard saltLength >= 0, EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PSS_PADDING) == 1,
                EVP_PKEY_CTX_set_rsa_mgf1_md(context, mgf1Hash.fetched.pointer) == 1,
                EVP_PKEY_CTX_set_rsa_pss_saltlen(context, Int32(clamping: saltLength)) == 1
            else { throw CryptoError(.invalidParameter, openSSLErrorDescription("PSS parameters")) }
        }
        var length = (modulusBits + 7) / 8
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_sign(context, &signature, &length, digest, digest.count) == 1 else {
            throw CryptoError(.libraryFailure, openSSLErrorDescription("RSA signature"))
        }
        return Array(signature.prefix(length))
    }

    private func parameter(_ name: String) -> [UInt8] {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(storage.key, name, &number) == 1, let number else {
            ERR_clear_error()
            return []
        }
        defer { BN_free(number) }
        var bytes = [UInt8](repeating: 0, count: (Int(BN_num_bits(number)) + 7) / 8)
        _ = BN_bn2bin(number, &bytes)
        return bytes
    }

    public var description: String { "RSAPrivateKey(\(modulusBits) bits, redacted)" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
