import COpenSSL

/// The chip's RSA key pair for Active Authentication (ICAO 9303-11 §6.1): its public half goes
/// into DG15, the private half stays on the chip. Held as a libcrypto `EVP_PKEY`, freed (and
/// wiped by libcrypto) with the last copy; descriptions never show it.
public struct RSAKeyPair: Sendable, CustomStringConvertible, CustomReflectable {
    private final class Storage: @unchecked Sendable {
        let key: OpaquePointer
        init(_ key: OpaquePointer) { self.key = key }
        deinit { EVP_PKEY_free(key) }
    }

    private let storage: Storage

    /// The size of the modulus in bits.
    public var modulusBits: Int { Int(EVP_PKEY_get_bits(storage.key)) }

    /// A fresh key with public exponent 65537 (1024 to 4096 bits).
    public static func generate(bits: Int = 2048) throws(ChipSimulatorError) -> RSAKeyPair {
        guard (1024...4096).contains(bits) else { throw ChipSimulatorError("an RSA key of \(bits) bits") }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else {
            throw ChipSimulatorError("OpenSSL: no RSA key context")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) == 1,
            EVP_PKEY_generate(context, &key) == 1, let key
        else { throw ChipSimulatorError("OpenSSL: cannot generate an RSA key of \(bits) bits") }
        return RSAKeyPair(storage: Storage(key))
    }

    /// A key from its DER encoding (PKCS#8 PrivateKeyInfo or PKCS#1 RSAPrivateKey). Trailing bytes
    /// and keys of other types are refused.
    public init(privateKeyDER der: [UInt8]) throws(ChipSimulatorError) {
        let decoded: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            guard let start = buffer.baseAddress, let key = d2i_AutoPrivateKey(nil, &cursor, buffer.count) else {
                return nil
            }
            guard cursor == start + buffer.count, EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA else {
                EVP_PKEY_free(key)
                return nil
            }
            return key
        }
        ERR_clear_error()
        guard let decoded else { throw ChipSimulatorError("not a DER RSA private key") }
        storage = Storage(decoded)
    }

    private init(storage: Storage) { self.storage = storage }

    /// The DER SubjectPublicKeyInfo (rsaEncryption), as DG15 holds it.
    public func subjectPublicKeyInfo() throws(ChipSimulatorError) -> [UInt8] {
        let length = i2d_PUBKEY(storage.key, nil)
        guard length > 0 else { throw ChipSimulatorError("OpenSSL: cannot encode an RSA public key") }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_PUBKEY(storage.key, &cursor)
        }
        guard written == length else { throw ChipSimulatorError("OpenSSL: cannot encode an RSA public key") }
        return bytes
    }

    public var description: String { "RSAKeyPair(\(modulusBits) bits, private key redacted)" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
