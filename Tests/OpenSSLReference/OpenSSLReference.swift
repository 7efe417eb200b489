import Arithmetic
import COpenSSL

// OpenSSL (libcrypto) as the independent reference: ArithmeticTests checks Arithmetic against it
// (differential tests) and emrtd-bench's curves suite times Arithmetic beside it. One copy, so
// that both compare against the same calls.

/// OpenSSL's big number holding `value`; the caller frees it with `BN_free`.
public func openSSLNumber(_ value: BigInt) -> OpaquePointer? {
    let bytes = value.minimalBytes
    return BN_bin2bn(bytes, Int32(bytes.count), nil)
}

/// The value of an OpenSSL big number; -1 (no value either side produces) for nil.
public func bigInt(fromOpenSSL number: OpaquePointer?) -> BigInt {
    guard let number else { return BigInt(-1) }
    var bytes = [UInt8](repeating: 0, count: Int((BN_num_bits(number) + 7) / 8))
    BN_bn2bin(number, &bytes)
    return BigInt(bytes: bytes)
}

/// One of the standardized curves 8–18 in OpenSSL's own tables: its parameters, point codecs,
/// scalar multiplication and ECDSA.
public final class OpenSSLCurve {
    /// OpenSSL's NIDs for the standardized curves 8–18.
    public static let nids: [Int: Int32] = [
        8: NID_X9_62_prime192v1, 9: NID_brainpoolP192r1, 10: NID_secp224r1, 11: NID_brainpoolP224r1,
        12: NID_X9_62_prime256v1, 13: NID_brainpoolP256r1, 14: NID_brainpoolP320r1, 15: NID_secp384r1,
        16: NID_brainpoolP384r1, 17: NID_brainpoolP512r1, 18: NID_secp521r1,
    ]

    public let group: OpaquePointer
    public let context: OpaquePointer
    /// Where `multiply(_:by:)` puts its result and its affine coordinates, so that a timed
    /// multiplication allocates nothing.
    private let product: OpaquePointer
    private let x: OpaquePointer
    private let y: OpaquePointer

    public init?(parameterID: Int) {
        guard let nid = OpenSSLCurve.nids[parameterID], let group = EC_GROUP_new_by_curve_name(nid),
            let context = BN_CTX_new(), let product = EC_POINT_new(group), let x = BN_new(), let y = BN_new()
        else { return nil }
        self.group = group
        self.context = context
        self.product = product
        self.x = x
        self.y = y
    }

    deinit {
        BN_free(x)
        BN_free(y)
        EC_POINT_free(product)
        EC_GROUP_free(group)
        BN_CTX_free(context)
    }

    /// OpenSSL's curve parameters: p, a, b, order, cofactor, uncompressed generator.
    public var parameters: (p: BigInt, a: BigInt, b: BigInt, order: BigInt, cofactor: BigInt, generator: [UInt8]) {
        let p = BN_new()
        let a = BN_new()
        let b = BN_new()
        defer { for number in [p, a, b] { BN_free(number) } }
        EC_GROUP_get_curve(group, p, a, b, context)
        let generator = encode(EC_GROUP_get0_generator(group), compressed: false) ?? []
        return (
            bigInt(fromOpenSSL: p), bigInt(fromOpenSSL: a), bigInt(fromOpenSSL: b),
            bigInt(fromOpenSSL: EC_GROUP_get0_order(group)), bigInt(fromOpenSSL: EC_GROUP_get0_cofactor(group)),
            generator
        )
    }

    public func encode(_ point: OpaquePointer?, compressed: Bool) -> [UInt8]? {
        guard let point else { return nil }
        let form = compressed ? POINT_CONVERSION_COMPRESSED : POINT_CONVERSION_UNCOMPRESSED
        let length = EC_POINT_point2oct(group, point, form, nil, 0, context)
        guard length > 1 else { return nil }
        var bytes = [UInt8](repeating: 0, count: length)
        guard EC_POINT_point2oct(group, point, form, &bytes, length, context) == length else { return nil }
        return bytes
    }

    /// OpenSSL's point decoded from `bytes`, nil when it rejects them; the caller frees it with
    /// `EC_POINT_free`.
    public func point(_ bytes: [UInt8]) -> OpaquePointer? {
        guard let point = EC_POINT_new(group) else { return nil }
        guard EC_POINT_oct2point(group, point, bytes, bytes.count, context) == 1 else {
            EC_POINT_free(point)
            return nil
        }
        return point
    }

    /// The point OpenSSL decodes from `bytes` (nil when it rejects them), re-encoded uncompressed.
    public func decode(_ bytes: [UInt8]) -> [UInt8]? {
        guard let point = point(bytes) else { return nil }
        defer { EC_POINT_free(point) }
        return encode(point, compressed: false)
    }

    /// k·P (P encoded; nil for P = nil means k·G), encoded.
    public func multiply(_ pointBytes: [UInt8]?, by scalar: BigInt, compressed: Bool = false) -> [UInt8]? {
        guard let k = openSSLNumber(scalar) else { return nil }
        defer { BN_free(k) }
        var point: OpaquePointer?
        if let pointBytes {
            guard let decoded = self.point(pointBytes) else { return nil }
            point = decoded
        }
        defer { if let point { EC_POINT_free(point) } }
        guard multiply(point, by: k) else { return nil }
        return encode(product, compressed: compressed)
    }

    /// k·P, or k·G when `point` is nil, on OpenSSL's own objects (what the bench times), up to its
    /// affine coordinates; false when OpenSSL fails. `EC_POINT_mul` alone may leave the result
    /// projective (P-256's `ecp_nistz256` does), while every caller needs x and y (a public key,
    /// an ECDH secret) and emrtd's multiplications return them.
    @discardableResult
    public func multiply(_ point: OpaquePointer?, by scalar: OpaquePointer?) -> Bool {
        let multiplied =
            if let point {
                EC_POINT_mul(group, product, nil, point, scalar, context) == 1
            } else {
                EC_POINT_mul(group, product, scalar, nil, nil, context) == 1
            }
        return multiplied && EC_POINT_get_affine_coordinates(group, product, x, y, context) == 1
    }

    /// An ECDSA signature by OpenSSL (r, s) over `digest` with `privateKey`.
    public func sign(digest: [UInt8], privateKey: BigInt) -> (r: BigInt, s: BigInt)? {
        guard let d = openSSLNumber(privateKey), let key = copenssl_ec_key_new(group, d, nil) else { return nil }
        defer {
            BN_free(d)
            copenssl_ec_key_free(key)
        }
        guard let signature = copenssl_ecdsa_do_sign(digest, Int32(digest.count), key) else { return nil }
        defer { ECDSA_SIG_free(signature) }
        return (bigInt(fromOpenSSL: ECDSA_SIG_get0_r(signature)), bigInt(fromOpenSSL: ECDSA_SIG_get0_s(signature)))
    }

    /// An EC_KEY holding `publicKey` for `verify`; the caller frees it with `copenssl_ec_key_free`.
    public func verificationKey(_ publicKey: OpaquePointer?) -> OpaquePointer? {
        copenssl_ec_key_new(group, nil, publicKey)
    }

    /// An ECDSA_SIG of (r, s) for `verify`; the caller frees it with `ECDSA_SIG_free`.
    public func signature(r: BigInt, s: BigInt) -> OpaquePointer? {
        guard let signature = ECDSA_SIG_new() else { return nil }
        ECDSA_SIG_set0(signature, openSSLNumber(r), openSSLNumber(s))
        return signature
    }

    /// Whether OpenSSL accepts `signature` over `digest` under `key`.
    public func verify(digest: [UInt8], signature: OpaquePointer?, key: OpaquePointer?) -> Bool {
        copenssl_ecdsa_do_verify(digest, Int32(digest.count), signature, key) == 1
    }
}

/// OpenSSL's BN_mod_exp.
public func openSSLModExp(_ base: BigInt, _ exponent: BigInt, _ modulus: BigInt) -> BigInt? {
    guard let context = BN_CTX_new() else { return nil }
    defer { BN_CTX_free(context) }
    let numbers = [base, exponent, modulus].map(openSSLNumber)
    let result = BN_new()
    defer { for number in numbers + [result] { BN_free(number) } }
    guard BN_mod_exp(result, numbers[0], numbers[1], numbers[2], context) == 1, let result else { return nil }
    return bigInt(fromOpenSSL: result)
}

/// Random bytes from OpenSSL's generator (independent of the package's own source).
public func openSSLRandomBytes(_ count: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    _ = RAND_bytes(&bytes, Int32(count))
    return bytes
}
