import ASN1
import Arithmetic
import COpenSSL
import Secrets

/// The chip's RSA key pair for Active Authentication (ICAO 9303-11 §6.1): its public half goes
/// into DG15, the private half stays on the chip. Generated or read through libcrypto, then held
/// as GMP integers (wiped when released), as the chip's other keys are; descriptions never show
/// the private exponent.
public struct RSAKeyPair: Sendable, CustomStringConvertible, CustomReflectable {
    let modulus: BigInt
    let publicExponent: BigInt
    let privateExponent: BigInt

    /// The size of the modulus in bits.
    public var modulusBits: Int { modulus.bitWidth }

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
        defer { EVP_PKEY_free(key) }
        return try RSAKeyPair(key)
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
        defer { EVP_PKEY_free(decoded) }
        try self.init(decoded)
    }

    /// A key from its modulus and exponents (big-endian unsigned), as worked examples give it.
    /// The modulus must be odd and the exponents in (1, n).
    public init(modulus: [UInt8], publicExponent: [UInt8], privateExponent: [UInt8]) throws(ChipSimulatorError) {
        let n = BigInt(bytes: modulus)
        let e = BigInt(bytes: publicExponent)
        let d = BigInt(bytes: privateExponent)
        guard n.isOdd, n.bitWidth >= 512, BigInt(1) < e, e < n, BigInt(1) < d, d < n else {
            throw ChipSimulatorError("not an RSA key: the modulus must be odd and the exponents in (1, n)")
        }
        self.modulus = n
        self.publicExponent = e
        self.privateExponent = d
    }

    /// The private operation x^d mod n on an input below the modulus (the chip's signature).
    func privateOperation(_ input: BigInt) throws(ChipSimulatorError) -> BigInt {
        guard input < modulus else { throw ChipSimulatorError("an RSA input above the modulus") }
        do {
            return try input.powerSecret(privateExponent, modulo: modulus)
        } catch {
            throw ChipSimulatorError("RSA private operation: \(error)")
        }
    }

    /// The DER SubjectPublicKeyInfo (ASN1ObjectIdentifier.rsaEncryption, NULL parameters), as DG15 holds it.
    public func subjectPublicKeyInfo() throws(ChipSimulatorError) -> [UInt8] {
        DER.sequence([
            DER.sequence([DER.objectIdentifier(ASN1ObjectIdentifier.rsaEncryption), DER.null()]),
            DER.bitString(
                DER.sequence([
                    DER.unsignedInteger(modulus.minimalBytes), DER.unsignedInteger(publicExponent.minimalBytes),
                ])),
        ])
    }

    public var description: String { "RSAKeyPair(\(modulusBits) bits, private key redacted)" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }

    /// n, e and d out of a libcrypto key.
    private init(_ key: OpaquePointer) throws(ChipSimulatorError) {
        func parameter(_ name: String) -> BigInt? {
            var number: OpaquePointer?
            guard EVP_PKEY_get_bn_param(key, name, &number) == 1, let number else { return nil }
            defer { BN_clear_free(number) }
            var bytes = [UInt8](repeating: 0, count: (Int(BN_num_bits(number)) + 7) / 8)
            _ = BN_bn2bin(number, &bytes)
            defer { bytes.wipe() }
            return BigInt(bytes: bytes)
        }
        guard let n = parameter("n"), let e = parameter("e"), let d = parameter("d") else {
            ERR_clear_error()
            throw ChipSimulatorError("OpenSSL: an RSA key without its modulus or exponents")
        }
        modulus = n
        publicExponent = e
        privateExponent = d
    }
}
