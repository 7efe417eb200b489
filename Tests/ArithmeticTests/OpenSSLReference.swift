import COpenSSL
import Foundation
import Secrets

@testable import Arithmetic

/// OpenSSL (libcrypto) as the independent reference of the differential tests: its own curve tables,
/// point codecs, scalar multiplication, ECDSA signing and modular exponentiation.
final class OpenSSLCurve {
    /// OpenSSL's NIDs for the standardized curves 8–18.
    static let nids: [Int: Int32] = [
        8: NID_X9_62_prime192v1, 9: NID_brainpoolP192r1, 10: NID_secp224r1, 11: NID_brainpoolP224r1,
        12: NID_X9_62_prime256v1, 13: NID_brainpoolP256r1, 14: NID_brainpoolP320r1, 15: NID_secp384r1,
        16: NID_brainpoolP384r1, 17: NID_brainpoolP512r1, 18: NID_secp521r1,
    ]

    let group: OpaquePointer
    let context: OpaquePointer

    init?(parameterID: Int) {
        guard let nid = OpenSSLCurve.nids[parameterID], let group = EC_GROUP_new_by_curve_name(nid),
            let context = BN_CTX_new()
        else { return nil }
        self.group = group
        self.context = context
    }

    deinit {
        EC_GROUP_free(group)
        BN_CTX_free(context)
    }

    /// OpenSSL's curve parameters: p, a, b, order, cofactor, uncompressed generator.
    var parameters: (p: BigInt, a: BigInt, b: BigInt, order: BigInt, cofactor: BigInt, generator: [UInt8]) {
        let p = BN_new()
        let a = BN_new()
        let b = BN_new()
        defer { for number in [p, a, b] { BN_free(number) } }
        EC_GROUP_get_curve(group, p, a, b, context)
        let generator = encode(EC_GROUP_get0_generator(group), compressed: false) ?? []
        return (
            bigInt(p), bigInt(a), bigInt(b), bigInt(EC_GROUP_get0_order(group)), bigInt(EC_GROUP_get0_cofactor(group)),
            generator
        )
    }

    func bigInt(_ bn: OpaquePointer?) -> BigInt {
        guard let bn else { return BigInt(-1) }
        var bytes = [UInt8](repeating: 0, count: Int((BN_num_bits(bn) + 7) / 8))
        BN_bn2bin(bn, &bytes)
        return BigInt(bytes: bytes)
    }

    func bignum(_ value: BigInt) -> OpaquePointer? {
        let bytes = value.minimalBytes
        return BN_bin2bn(bytes, Int32(bytes.count), nil)
    }

    func encode(_ point: OpaquePointer?, compressed: Bool) -> [UInt8]? {
        guard let point else { return nil }
        let form = compressed ? POINT_CONVERSION_COMPRESSED : POINT_CONVERSION_UNCOMPRESSED
        let length = EC_POINT_point2oct(group, point, form, nil, 0, context)
        guard length > 1 else { return nil }
        var bytes = [UInt8](repeating: 0, count: length)
        guard EC_POINT_point2oct(group, point, form, &bytes, length, context) == length else { return nil }
        return bytes
    }

    /// The point OpenSSL decodes from `bytes` (nil when it rejects them), re-encoded uncompressed.
    func decode(_ bytes: [UInt8]) -> [UInt8]? {
        guard let point = EC_POINT_new(group) else { return nil }
        defer { EC_POINT_free(point) }
        guard EC_POINT_oct2point(group, point, bytes, bytes.count, context) == 1 else { return nil }
        return encode(point, compressed: false)
    }

    /// k·P (P encoded; nil for P = nil means k·G), encoded.
    func multiply(_ pointBytes: [UInt8]?, by scalar: BigInt, compressed: Bool = false) -> [UInt8]? {
        guard let result = EC_POINT_new(group), let k = bignum(scalar) else { return nil }
        defer {
            EC_POINT_free(result)
            BN_free(k)
        }
        if let pointBytes {
            guard let point = EC_POINT_new(group) else { return nil }
            defer { EC_POINT_free(point) }
            guard EC_POINT_oct2point(group, point, pointBytes, pointBytes.count, context) == 1,
                EC_POINT_mul(group, result, nil, point, k, context) == 1
            else { return nil }
        } else {
            guard EC_POINT_mul(group, result, k, nil, nil, context) == 1 else { return nil }
        }
        return encode(result, compressed: compressed)
    }

    /// An ECDSA signature by OpenSSL (r, s) over `digest` with `privateKey`.
    func sign(digest: [UInt8], privateKey: BigInt) -> (r: BigInt, s: BigInt)? {
        guard let d = bignum(privateKey), let key = copenssl_ec_key_new(group, d, nil) else { return nil }
        defer {
            BN_free(d)
            copenssl_ec_key_free(key)
        }
        guard let signature = copenssl_ecdsa_do_sign(digest, Int32(digest.count), key) else { return nil }
        defer { ECDSA_SIG_free(signature) }
        return (bigInt(ECDSA_SIG_get0_r(signature)), bigInt(ECDSA_SIG_get0_s(signature)))
    }
}

/// OpenSSL's BN_mod_exp.
func openSSLModExp(_ base: BigInt, _ exponent: BigInt, _ modulus: BigInt) -> BigInt? {
    guard let context = BN_CTX_new() else { return nil }
    defer { BN_CTX_free(context) }
    let numbers = [base, exponent, modulus].map { value -> OpaquePointer? in
        let bytes = value.minimalBytes
        return BN_bin2bn(bytes, Int32(bytes.count), nil)
    }
    let result = BN_new()
    defer { for number in numbers + [result] { BN_free(number) } }
    guard BN_mod_exp(result, numbers[0], numbers[1], numbers[2], context) == 1, let result else { return nil }
    var bytes = [UInt8](repeating: 0, count: Int((BN_num_bits(result) + 7) / 8))
    BN_bn2bin(result, &bytes)
    return BigInt(bytes: bytes)
}

/// Random bytes from OpenSSL's generator (independent of the package's own source).
func openSSLRandomBytes(_ count: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    _ = RAND_bytes(&bytes, Int32(count))
    return bytes
}

/// OpenSSL's generator as the random source of key generation.
let openSSLRandomSource = RandomSource { count in SecretBytes(openSSLRandomBytes(count)) }

/// How many random cases a differential test runs per parameter set: small by default so that debug
/// `swift test` stays fast; ARITHMETIC_DIFFERENTIAL_CASES raises it for long runs (release builds).
func differentialCases(default value: Int) -> Int {
    if let text = ProcessInfo.processInfo.environment["ARITHMETIC_DIFFERENTIAL_CASES"], let count = Int(text), count > 0
    {
        return count
    }
    return value
}
