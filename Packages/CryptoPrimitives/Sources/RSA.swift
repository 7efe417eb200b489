import COpenSSL
import Secrets
import Synchronization

/// How an RSA signature is padded, with every parameter explicit: callers take
/// them from the AlgorithmIdentifier (RSASSA-PSS-params) or the protocol.
public enum RSASignaturePadding: Sendable, Hashable {
    /// RSASSA-PKCS1-v1_5: a DigestInfo for `hash` under type-1 padding. The
    /// DigestInfo's AlgorithmIdentifier may carry NULL parameters (RFC 8017) or
    /// none: RFC 4055 §2.1 requires accepting both for SHA-2, and some document
    /// signers omit them.
    case pkcs1v15(hash: HashAlgorithm)
    /// RSASSA-PSS with MGF1 and trailer field 1 (`BC`).
    case pss(hash: HashAlgorithm, mgf1Hash: HashAlgorithm, saltLength: Int)

    public var hash: HashAlgorithm {
        switch self {
        case .pkcs1v15(let hash), .pss(let hash, _, _): hash
        }
    }
}

/// An RSA public key and its public operations: signature verification
/// (PKCS#1 v1.5, PSS) and the raw operation `x^e mod n` that ISO/IEC 9796-2
/// message recovery (Active Authentication) starts from.
///
/// Holds a libcrypto `EVP_PKEY`, and for the raw operation the modulus, the
/// exponent and their Montgomery context, all immutable once built and freed
/// with the last copy of this value.
public struct RSAPublicKey: Sendable {
    private final class Storage: @unchecked Sendable {
        let key: OpaquePointer
        /// The raw operation's operands, made on its first use: through a fresh
        /// `EVP_PKEY_CTX` per call it spent more on the context than on the
        /// exponentiation (Active Authentication at 0.72× OpenSSL); made in
        /// every init, they would slow the keys built for one verification.
        let rawOperands = Mutex<RawOperands?>(nil)
        init(_ key: OpaquePointer) { self.key = key }
        deinit { EVP_PKEY_free(key) }

        /// The operands, made once; nil when libcrypto cannot give them.
        var operands: RawOperands? {
            rawOperands.withLock { cached in
                if let cached { return cached }
                cached = RawOperands(key)
                return cached
            }
        }
    }

    /// n, e and n's Montgomery context, immutable once made.
    private final class RawOperands: @unchecked Sendable {
        let modulus: OpaquePointer
        let exponent: OpaquePointer
        let montgomery: OpaquePointer

        init?(_ key: OpaquePointer) {
            var n: OpaquePointer?
            var e: OpaquePointer?
            var montgomery: OpaquePointer?
            defer { ERR_clear_error() }
            guard EVP_PKEY_get_bn_param(key, RSAPublicKey.modulusParameterName.cString, &n) == 1,
                EVP_PKEY_get_bn_param(key, RSAPublicKey.exponentParameterName.cString, &e) == 1,
                let n, let e, BN_is_odd(n) == 1, let context = BN_CTX_new()
            else {
                BN_free(n)
                BN_free(e)
                return nil
            }
            montgomery = BN_MONT_CTX_new()
            if let made = montgomery, BN_MONT_CTX_set(made, n, context) != 1 {
                BN_MONT_CTX_free(made)
                montgomery = nil
            }
            BN_CTX_free(context)
            guard let montgomery else {
                BN_free(n)
                BN_free(e)
                return nil
            }
            (modulus, exponent, self.montgomery) = (n, e, montgomery)
        }

        deinit {
            BN_free(modulus)
            BN_free(exponent)
            BN_MONT_CTX_free(montgomery)
        }
    }

    /// Larger moduli are refused before libcrypto sees them.
    public static let maximumModulusBits = 16384

    private let storage: Storage
    /// The size of the modulus in bits.
    public let modulusBits: Int

    /// The size of the modulus in bytes: the length of signatures and of raw results.
    public var modulusByteCount: Int { (modulusBits + 7) / 8 }

    /// A key from its modulus and public exponent as unsigned big-endian bytes
    /// (leading zero bytes, as in DER INTEGERs, are allowed).
    public init(modulus: [UInt8], exponent: [UInt8]) throws {
        let modulus = modulus.drop { $0 == 0 }
        let exponent = exponent.drop { $0 == 0 }
        guard modulus.count * 8 <= Self.maximumModulusBits else {
            throw CryptoError(.invalidPublicKey, "RSA modulus above \(Self.maximumModulusBits) bits")
        }
        guard let lowest = modulus.last, lowest & 1 == 1, modulus.count >= 8 else {
            throw CryptoError(.invalidPublicKey, "RSA modulus must be odd and at least 64 bits")
        }
        guard let lowestExponentByte = exponent.last, exponent.count <= modulus.count,
            exponent.count > 1 || lowestExponentByte > 1
        else {
            throw CryptoError(.invalidPublicKey, "RSA public exponent must be above 1 and shorter than the modulus")
        }
        guard let key = Self.buildKey(modulus: Array(modulus), exponent: Array(exponent)) else {
            throw CryptoError(.invalidPublicKey, openSSLErrorDescription("building the RSA key"))
        }
        self.init(key)
    }

    /// A key from a DER `SubjectPublicKeyInfo` whose algorithm is rsaEncryption
    /// or id-RSASSA-PSS. Trailing bytes are refused.
    public init(subjectPublicKeyInfo der: [UInt8]) throws {
        guard der.count <= Self.maximumModulusBits / 4 + 1024 else {
            throw CryptoError(.invalidPublicKey, "SubjectPublicKeyInfo of \(der.count) bytes is too large")
        }
        let decoded: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            guard let key = d2i_PUBKEY(nil, &cursor, buffer.count) else { return nil }
            guard let start = buffer.baseAddress, cursor == start + buffer.count else {
                EVP_PKEY_free(key)
                return nil
            }
            return key
        }
        guard let key = decoded else {
            throw CryptoError(.invalidPublicKey, openSSLErrorDescription("decoding the SubjectPublicKeyInfo"))
        }
        let type = EVP_PKEY_get_base_id(key)
        guard type == EVP_PKEY_RSA || type == EVP_PKEY_RSA_PSS else {
            EVP_PKEY_free(key)
            throw CryptoError(.invalidPublicKey, "the SubjectPublicKeyInfo holds no RSA key")
        }
        guard EVP_PKEY_get_bits(key) <= Self.maximumModulusBits else {
            EVP_PKEY_free(key)
            throw CryptoError(.invalidPublicKey, "RSA modulus above \(Self.maximumModulusBits) bits")
        }
        self.init(key)
    }

    private init(_ key: OpaquePointer) {
        storage = Storage(key)
        modulusBits = Int(EVP_PKEY_get_bits(key))
    }

    /// `input^e mod n` as `modulusByteCount` big-endian bytes, with no padding
    /// checked or removed. `input` (big-endian, at most `modulusByteCount`
    /// bytes) must be below the modulus.
    public func rawPublicOperation(_ input: [UInt8]) throws -> [UInt8] {
        let length = modulusByteCount
        let significant = input.drop { $0 == 0 }
        guard significant.count <= length else {
            throw CryptoError(.invalidParameter, "RSA input longer than the \(length)-byte modulus")
        }
        guard let operands = storage.operands, let context = BN_CTX_new() else {
            throw CryptoError(.libraryFailure, openSSLErrorDescription("preparing the RSA modulus"))
        }
        defer { BN_CTX_free(context) }
        BN_CTX_start(context)
        defer { BN_CTX_end(context) }
        let output: [UInt8]? = Array(significant).withUnsafeBufferPointer { buffer in
            guard let x = BN_CTX_get(context), let y = BN_CTX_get(context),
                BN_bin2bn(buffer.baseAddress, Int32(buffer.count), x) != nil,
                BN_ucmp(x, operands.modulus) < 0,
                BN_mod_exp_mont(y, x, operands.exponent, operands.modulus, context, operands.montgomery) == 1
            else { return nil }
            var bytes = [UInt8](repeating: 0, count: length)
            guard BN_bn2binpad(y, &bytes, Int32(length)) == Int32(length) else { return nil }
            return bytes
        }
        guard let output else {
            ERR_clear_error()
            throw CryptoError(.invalidParameter, "raw RSA: the input is not below the modulus")
        }
        return output
    }

    /// Whether `signature` is a valid signature of `message` (hashed here with
    /// `padding.hash`). A wrong signature is `false`; unusable parameters (a
    /// negative salt length) throw.
    public func isValidSignature<Bytes: Collection<UInt8>>(
        _ signature: [UInt8],
        for message: Bytes,
        padding: RSASignaturePadding
    ) throws -> Bool {
        try isValidSignature(signature, forDigest: padding.hash.hash(message), padding: padding)
    }

    /// Whether `signature` is a valid signature over the precomputed `digest`
    /// (which must be `padding.hash.digestLength` bytes).
    public func isValidSignature(_ signature: [UInt8], forDigest digest: [UInt8], padding: RSASignaturePadding) throws
        -> Bool
    {
        guard digest.count == padding.hash.digestLength else {
            throw CryptoError(.invalidInputLength, "a \(padding.hash) digest is \(padding.hash.digestLength) bytes")
        }
        if case .pss(_, _, let saltLength) = padding, saltLength < 0 {
            throw CryptoError(.invalidParameter, "PSS salt length \(saltLength)")
        }
        // A signature longer than the modulus is not a signature; a shorter one
        // (leading zero bytes dropped by a sloppy encoder) is the same integer.
        guard signature.count <= modulusByteCount, !signature.isEmpty else { return false }
        let paddedSignature = [UInt8](repeating: 0, count: modulusByteCount - signature.count) + signature
        return try withContext { context in
            guard EVP_PKEY_verify_init(context) == 1,
                EVP_PKEY_CTX_set_signature_md(context, padding.hash.fetched.pointer) == 1
            else {
                throw CryptoError(.libraryFailure, openSSLErrorDescription("RSA verify init"))
            }
            switch padding {
            case .pkcs1v15:
                guard EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) == 1 else {
                    throw CryptoError(.invalidParameter, openSSLErrorDescription("PKCS#1 v1.5 padding"))
                }
            case .pss(_, let mgf1Hash, let saltLength):
                guard EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PSS_PADDING) == 1,
                    EVP_PKEY_CTX_set_rsa_mgf1_md(context, mgf1Hash.fetched.pointer) == 1,
                    EVP_PKEY_CTX_set_rsa_pss_saltlen(context, Int32(clamping: saltLength)) == 1
                else {
                    throw CryptoError(.invalidParameter, openSSLErrorDescription("PSS parameters"))
                }
            }
            let result = EVP_PKEY_verify(context, paddedSignature, paddedSignature.count, digest, digest.count)
            ERR_clear_error()
            if result == 1 { return true }
            guard case .pkcs1v15(let hash) = padding else { return false }
            // libcrypto accepts only the NULL-parameter DigestInfo: check the other form here.
            let digestInfo = hash.digestInfoPrefixWithoutParameters + digest
            guard modulusByteCount >= digestInfo.count + 11 else { return false }
            let encoded =
                [0x00, 0x01] + [UInt8](repeating: 0xFF, count: modulusByteCount - digestInfo.count - 3) + [0x00]
                + digestInfo
            guard let recovered = try? rawPublicOperation(paddedSignature) else { return false }
            return constantTimeEquals(recovered, encoded)
        }
    }

    private func withContext<Result>(_ body: (OpaquePointer) throws -> Result) throws -> Result {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, storage.key, nil) else {
            throw CryptoError(.libraryFailure, "EVP_PKEY_CTX_new_from_pkey")
        }
        defer { EVP_PKEY_CTX_free(context) }
        return try body(context)
    }

    /// `OSSL_PKEY_PARAM_RSA_N` and `OSSL_PKEY_PARAM_RSA_E`, with static storage.
    private static let modulusParameterName: StaticString = "n"
    private static let exponentParameterName: StaticString = "e"

    private static func buildKey(modulus: [UInt8], exponent: [UInt8]) -> OpaquePointer? {
        guard let builder = OSSL_PARAM_BLD_new() else { return nil }
        defer { OSSL_PARAM_BLD_free(builder) }
        let n = BN_bin2bn(modulus, Int32(modulus.count), nil)
        let e = BN_bin2bn(exponent, Int32(exponent.count), nil)
        defer {
            BN_free(n)
            BN_free(e)
        }
        guard let n, let e else { return nil }
        // The builder and the OSSL_PARAM array it builds keep pointers to the
        // parameter names without copying them: they must be static strings.
        guard OSSL_PARAM_BLD_push_BN(builder, Self.modulusParameterName.cString, n) == 1,
            OSSL_PARAM_BLD_push_BN(builder, Self.exponentParameterName.cString, e) == 1
        else { return nil }
        let built = OSSL_PARAM_BLD_to_param(builder)
        guard let parameters = built else { return nil }
        defer { OSSL_PARAM_free(parameters) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_fromdata_init(context) == 1,
            EVP_PKEY_fromdata(context, &key, copenssl_evp_pkey_public_key_selection(), parameters) == 1
        else { return nil }
        return key
    }
}

extension StaticString {
    /// The string as a C string; valid for the life of the process.
    fileprivate var cString: UnsafePointer<CChar> {
        UnsafeRawPointer(utf8Start).assumingMemoryBound(to: CChar.self)
    }
}

extension HashAlgorithm {
    /// DER of `DigestInfo` up to the digest, with the AlgorithmIdentifier's
    /// parameters absent: SEQUENCE { SEQUENCE { OID }, OCTET STRING (length) }.
    fileprivate var digestInfoPrefixWithoutParameters: [UInt8] {
        let oid: [UInt8] =
            switch self {
            case .sha1: [0x2B, 0x0E, 0x03, 0x02, 0x1A]
            case .sha224: [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x04]
            case .sha256: [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]
            case .sha384: [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02]
            case .sha512: [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03]
            }
        let algorithm = [0x30, UInt8(oid.count + 2), 0x06, UInt8(oid.count)] + oid
        return [0x30, UInt8(algorithm.count + 2 + digestLength)] + algorithm + [0x04, UInt8(digestLength)]
    }
}
