import Arithmetic
import COpenSSL
import Foundation

/// `emrtd-bench curves [--json] [--seconds S] [--ids 13,14]`: for every standardized domain parameter
/// set, Arithmetic's scalar multiplications (public variable-base, secret-scalar, fixed-base) and ECDSA
/// verification, or for the MODP groups its exponentiations, each beside OpenSSL's in the same run.
func curvesSuite(_ arguments: [String]) -> Int32 {
    var options = CurvesOptions()
    do {
        options = try CurvesOptions(arguments)
    } catch {
        FileHandle.standardError.write(Data("emrtd-bench curves: \(error)\n".utf8))
        return 2
    }
    var results: [ParameterResult] = []
    if !options.json { printHeader() }
    for entry in StandardDomainParameters.all where options.ids?.contains(entry.id) ?? true {
        let operations: [OperationResult]
        switch entry.parameters {
        case .ellipticCurve(let curve):
            guard let reference = OpenSSLBenchCurve(curve: curve) else {
                FileHandle.standardError.write(Data("OpenSSL does not know \(entry.name)\n".utf8))
                return 1
            }
            operations = benchCurve(curve, reference: reference, seconds: options.seconds)
        case .dhGroup(let group):
            operations = benchGroup(group, seconds: options.seconds)
        }
        let result = ParameterResult(parameterId: entry.id, name: entry.name, operations: operations)
        if !options.json { printRows(result) }
        results.append(result)
    }
    if options.json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(results) else { return 1 }
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
    return 0
}

struct CurvesOptions {
    var json = false
    var seconds = 0.3
    var ids: Set<Int>? = nil

    init() {}

    init(_ arguments: [String]) throws {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--json": json = true
            case "--seconds":
                guard let value = iterator.next().flatMap(Double.init), value > 0 else {
                    throw BenchError("--seconds S")
                }
                seconds = value
            case "--ids":
                guard let list = iterator.next() else { throw BenchError("--ids 13,14") }
                ids = Set(list.split(separator: ",").compactMap { Int($0) })
            default: throw BenchError("unknown argument \(argument)")
            }
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

struct OperationResult: Encodable {
    let operation: String
    let ours: Double
    let openssl: Double
    var ratio: Double { openssl > 0 ? ours / openssl : 0 }

    enum CodingKeys: String, CodingKey { case operation, ours, openssl, ratio }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(operation, forKey: .operation)
        try container.encode((ours * 10).rounded() / 10, forKey: .ours)
        try container.encode((openssl * 10).rounded() / 10, forKey: .openssl)
        try container.encode((ratio * 1000).rounded() / 1000, forKey: .ratio)
    }
}

struct ParameterResult: Encodable {
    let parameterId: Int
    let name: String
    let operations: [OperationResult]
}

private func pad(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
private func left(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
}

private func printHeader() {
    print(
        pad("id", 4) + pad("parameters", 18) + pad("operation", 16) + left("ours ops/s", 12) + left("OpenSSL ops/s", 15)
            + left("ratio", 8))
}

private func printRows(_ result: ParameterResult) {
    let shortName =
        result.name.hasPrefix("1024")
        ? "MODP-1024-160"
        : result.name.hasPrefix("2048-bit MODP Group with 224")
            ? "MODP-2048-224"
            : result.name.hasPrefix("2048") ? "MODP-2048-256" : result.name
    for operation in result.operations {
        print(
            pad(String(result.parameterId), 4) + pad(shortName, 18) + pad(operation.operation, 16)
                + left(String(format: "%.0f", operation.ours), 12) + left(String(format: "%.0f", operation.openssl), 15)
                + left(String(format: "%.2f", operation.ratio), 8))
    }
}

/// Operations per second of `body`, run over and over for about `seconds` (after a warm-up).
func measure(seconds: Double, _ body: (Int) -> Void) -> Double {
    for index in 0..<3 { body(index) }
    var iterations = 0
    let start = DispatchTime.now().uptimeNanoseconds
    var elapsed = 0.0
    repeat {
        for _ in 0..<8 {
            body(iterations)
            iterations += 1
        }
        elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    } while elapsed < seconds
    return Double(iterations) / elapsed
}

/// Operations per second of `ours` and of `openssl`, measured in alternating slices of about
/// `seconds / 10` each (after a warm-up), so that a machine whose load changes during the run slows
/// both sides alike and the ratio stays meaningful.
func measurePair(seconds: Double, ours: (Int) -> Void, openssl: (Int) -> Void) -> (ours: Double, openssl: Double) {
    let slices = 10
    var totals = (ours: (iterations: 0, seconds: 0.0), openssl: (iterations: 0, seconds: 0.0))
    for index in 0..<3 {
        ours(index)
        openssl(index)
    }
    func slice(_ body: (Int) -> Void, _ total: inout (iterations: Int, seconds: Double)) {
        let start = DispatchTime.now().uptimeNanoseconds
        var elapsed = 0.0
        repeat {
            for _ in 0..<4 {
                body(total.iterations)
                total.iterations += 1
            }
            elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        } while elapsed < seconds / Double(slices)
        total.seconds += elapsed
    }
    for _ in 0..<slices {
        slice(ours, &totals.ours)
        slice(openssl, &totals.openssl)
    }
    return (
        Double(totals.ours.iterations) / totals.ours.seconds, Double(totals.openssl.iterations) / totals.openssl.seconds
    )
}

private func benchCurve(_ curve: EllipticCurve, reference: OpenSSLBenchCurve, seconds: Double) -> [OperationResult] {
    let count = 16
    let scalars = (0..<count).compactMap { _ in try? BigInt.random(below: curve.order) }
    let points = scalars.compactMap { try? curve.multiplyGenerator(by: $0 + BigInt(7)) }
    guard scalars.count == count, points.count == count else { return [] }
    let pointsSSL = points.map { reference.point(try? curve.encode($0)) }
    let scalarsSSL = scalars.map { reference.bignum($0) }
    defer {
        for item in pointsSSL { EC_POINT_free(item) }
        for item in scalarsSSL { BN_free(item) }
    }
    var sink = 0
    let variableBase = measurePair(
        seconds: seconds,
        ours: { index in sink &+= curve.multiply(points[index % count], by: scalars[index % count]).isInfinity ? 1 : 0
        },
        openssl: { index in sink &+= Int(reference.multiply(pointsSSL[index % count], scalarsSSL[index % count])) })
    let secret = measurePair(
        seconds: seconds,
        ours: { index in
            sink &+= ((try? curve.multiplySecret(points[index % count], by: scalars[index % count])) == nil) ? 1 : 0
        },
        openssl: { index in sink &+= Int(reference.multiply(pointsSSL[index % count], scalarsSSL[index % count])) })
    let fixed = measurePair(
        seconds: seconds,
        ours: { index in sink &+= ((try? curve.multiplyGenerator(by: scalars[index % count])) == nil) ? 1 : 0 },
        openssl: { index in sink &+= Int(reference.multiply(nil, scalarsSSL[index % count])) })

    // ECDSA: OpenSSL signs random digests; both sides verify the same signatures.
    let keys = (0..<count).map { index in (scalars[index], points[index]) }
    var signatures: [(digest: [UInt8], key: Int, r: BigInt, s: BigInt)] = []
    for index in 0..<count {
        var digest = [UInt8](repeating: 0, count: min(64, curve.orderLength))
        _ = RAND_bytes(&digest, Int32(digest.count))
        let privateKey = keys[index].0 + BigInt(7)
        guard let (r, s) = reference.sign(digest: digest, privateKey: privateKey) else { return [] }
        signatures.append((digest, index, r, s))
    }
    let sslKeys = (0..<count).map { reference.ecKey(publicKey: pointsSSL[$0]) }
    let sslSignatures = signatures.map { reference.ecdsaSignature(r: $0.r, s: $0.s) }
    defer {
        for item in sslKeys { copenssl_ec_key_free(item) }
        for item in sslSignatures { ECDSA_SIG_free(item) }
    }
    let verify = measurePair(
        seconds: seconds,
        ours: { index in
            let signature = signatures[index % count]
            let valid = try? ECDSA.verify(
                publicKey: points[signature.key], digest: signature.digest,
                signature: ECDSASignature(r: signature.r, s: signature.s), curve: curve)
            sink &+= valid == true ? 1 : 0
        },
        openssl: { index in
            let signature = signatures[index % count]
            sink &+= Int(
                copenssl_ecdsa_do_verify(
                    signature.digest, Int32(signature.digest.count), sslSignatures[index % count],
                    sslKeys[signature.key]))
        })
    if sink == 42 { print("") }
    return [
        OperationResult(operation: "variable-base", ours: variableBase.ours, openssl: variableBase.openssl),
        OperationResult(operation: "secret-scalar", ours: secret.ours, openssl: secret.openssl),
        OperationResult(operation: "fixed-base", ours: fixed.ours, openssl: fixed.openssl),
        OperationResult(operation: "ecdsa-verify", ours: verify.ours, openssl: verify.openssl),
    ]
}

private func benchGroup(_ group: DHGroup, seconds: Double) -> [OperationResult] {
    let count = 16
    guard let q = group.subgroupOrder else { return [] }
    let exponents = (0..<count).compactMap { _ in try? BigInt.random(below: q) }
    let bases = exponents.compactMap { try? group.generatorPower($0 + BigInt(3)) }
    guard exponents.count == count, bases.count == count, let context = BN_CTX_new(),
        let montgomery = BN_MONT_CTX_new()
    else { return [] }
    let bn = { (value: BigInt) -> OpaquePointer? in
        let bytes = value.minimalBytes
        return BN_bin2bn(bytes, Int32(bytes.count), nil)
    }
    let p = bn(group.p)
    let g = bn(group.g)
    let exponentsSSL = exponents.map(bn)
    let basesSSL = bases.map(bn)
    let result = BN_new()
    BN_MONT_CTX_set(montgomery, p, context)
    defer {
        for item in exponentsSSL + basesSSL + [p, g, result] { BN_free(item) }
        BN_MONT_CTX_free(montgomery)
        BN_CTX_free(context)
    }
    var sink = 0
    let variable = measurePair(
        seconds: seconds,
        ours: { index in sink &+= group.power(bases[index % count], exponents[index % count]).isZero ? 1 : 0 },
        openssl: { index in
            sink &+= Int(
                BN_mod_exp_mont(result, basesSSL[index % count], exponentsSSL[index % count], p, context, montgomery))
        })
    let secret = measurePair(
        seconds: seconds,
        ours: { index in
            sink &+= ((try? group.powerSecret(bases[index % count], exponents[index % count])) == nil) ? 1 : 0
        },
        openssl: { index in
            sink &+= Int(
                BN_mod_exp_mont_consttime(
                    result, basesSSL[index % count], exponentsSSL[index % count], p, context, montgomery))
        })
    let fixed = measurePair(
        seconds: seconds,
        ours: { index in sink &+= ((try? group.generatorPower(exponents[index % count])) == nil) ? 1 : 0 },
        openssl: { index in
            sink &+= Int(BN_mod_exp_mont(result, g, exponentsSSL[index % count], p, context, montgomery))
        })
    if sink == 42 { print("") }
    return [
        OperationResult(operation: "variable-base", ours: variable.ours, openssl: variable.openssl),
        OperationResult(operation: "secret-exponent", ours: secret.ours, openssl: secret.openssl),
        OperationResult(operation: "fixed-base", ours: fixed.ours, openssl: fixed.openssl),
    ]
}

/// OpenSSL's side of the curve benchmarks: the built-in group of the same curve.
final class OpenSSLBenchCurve {
    private static let nids: [Int: Int32] = [
        8: NID_X9_62_prime192v1, 9: NID_brainpoolP192r1, 10: NID_secp224r1, 11: NID_brainpoolP224r1,
        12: NID_X9_62_prime256v1, 13: NID_brainpoolP256r1, 14: NID_brainpoolP320r1, 15: NID_secp384r1,
        16: NID_brainpoolP384r1, 17: NID_brainpoolP512r1, 18: NID_secp521r1,
    ]

    let group: OpaquePointer
    let context: OpaquePointer
    let result: OpaquePointer

    init?(curve: EllipticCurve) {
        guard let id = curve.standardParameterID, let nid = OpenSSLBenchCurve.nids[id],
            let group = EC_GROUP_new_by_curve_name(nid), let context = BN_CTX_new(), let result = EC_POINT_new(group)
        else { return nil }
        self.group = group
        self.context = context
        self.result = result
    }

    deinit {
        EC_POINT_free(result)
        EC_GROUP_free(group)
        BN_CTX_free(context)
    }

    func bignum(_ value: BigInt) -> OpaquePointer? {
        let bytes = value.minimalBytes
        return BN_bin2bn(bytes, Int32(bytes.count), nil)
    }

    func bigInt(_ bn: OpaquePointer?) -> BigInt {
        guard let bn else { return BigInt(0) }
        var bytes = [UInt8](repeating: 0, count: Int((BN_num_bits(bn) + 7) / 8))
        BN_bn2bin(bn, &bytes)
        return BigInt(bytes: bytes)
    }

    func point(_ bytes: [UInt8]?) -> OpaquePointer? {
        guard let bytes, let point = EC_POINT_new(group) else { return nil }
        guard EC_POINT_oct2point(group, point, bytes, bytes.count, context) == 1 else {
            EC_POINT_free(point)
            return nil
        }
        return point
    }

    /// EC_POINT_mul: k·P, or k·G when P is nil.
    func multiply(_ point: OpaquePointer?, _ scalar: OpaquePointer?) -> Int32 {
        if let point { return EC_POINT_mul(group, result, nil, point, scalar, context) }
        return EC_POINT_mul(group, result, scalar, nil, nil, context)
    }

    func sign(digest: [UInt8], privateKey: BigInt) -> (BigInt, BigInt)? {
        guard let d = bignum(privateKey), let key = copenssl_ec_key_new(group, d, nil) else { return nil }
        defer {
            BN_free(d)
            copenssl_ec_key_free(key)
        }
        guard let signature = copenssl_ecdsa_do_sign(digest, Int32(digest.count), key) else { return nil }
        defer { ECDSA_SIG_free(signature) }
        return (bigInt(ECDSA_SIG_get0_r(signature)), bigInt(ECDSA_SIG_get0_s(signature)))
    }

    func ecKey(publicKey: OpaquePointer?) -> OpaquePointer? { copenssl_ec_key_new(group, nil, publicKey) }

    func ecdsaSignature(r: BigInt, s: BigInt) -> OpaquePointer? {
        guard let signature = ECDSA_SIG_new() else { return nil }
        ECDSA_SIG_set0(signature, bignum(r), bignum(s))
        return signature
    }
}
