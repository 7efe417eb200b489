import Arithmetic
import COpenSSL
import Foundation
import OpenSSLReference

/// `emrtd-bench curves [--ids 13,14]`: for every standardized domain parameter set, Arithmetic's
/// scalar multiplications (public variable-base, secret-scalar, fixed-base) and ECDSA
/// verification, or for the MODP groups its exponentiations, each beside OpenSSL's in the same
/// run (OpenSSLReference, the differential tests' reference). Both sides end with the affine
/// coordinates a caller needs (OpenSSL's P-256 code leaves `EC_POINT_mul`'s result projective).
/// Rates in operations per second.
let curvesSuite = Suite(
    name: "curves",
    title: "curves: emrtd Arithmetic vs OpenSSL EC_POINT_mul to affine x, y, ECDSA_do_verify, BN_mod_exp_mont",
    takesParameterIDs: true
) { run in
    for entry in StandardDomainParameters.all where run.options.parameterIDs?.contains(entry.id) ?? true {
        let label = "\(entry.id) \(shortName(entry.name))"
        switch entry.parameters {
        case .ellipticCurve(let curve):
            guard let reference = OpenSSLCurve(parameterID: entry.id) else {
                throw BenchFailure("OpenSSL does not know \(entry.name)")
            }
            try benchCurve(curve, label: label, reference: reference, run: run)
        case .dhGroup(let group):
            try benchGroup(group, label: label, run: run)
        }
    }
}

/// The MODP groups' names are sentences; the curves' are short already.
private func shortName(_ name: String) -> String {
    if name.hasPrefix("1024") { return "MODP-1024-160" }
    if name.hasPrefix("2048-bit MODP Group with 224") { return "MODP-2048-224" }
    if name.hasPrefix("2048") { return "MODP-2048-256" }
    return name
}

private func benchCurve(_ curve: EllipticCurve, label: String, reference: OpenSSLCurve, run: BenchRun) throws {
    let count = 16
    let scalars = try (0..<count).map { _ in try BigInt.random(below: curve.order) }
    let points = try scalars.map { try curve.multiplyGenerator(by: $0 + BigInt(7)) }
    let pointsSSL = try points.map { point in
        guard let decoded = reference.point(try curve.encode(point)) else {
            throw BenchFailure("OpenSSL rejects a point of \(label)")
        }
        return decoded
    }
    let scalarsSSL = scalars.map(openSSLNumber)
    defer {
        for item in pointsSSL { EC_POINT_free(item) }
        for item in scalarsSSL { BN_free(item) }
    }
    var sink = 0
    run.compare(
        "\(label) variable-base", unit: "ops/s",
        emrtd: { index in sink &+= curve.multiply(points[index % count], by: scalars[index % count]).isInfinity ? 1 : 0
        },
        reference: { index in
            sink &+= reference.multiply(pointsSSL[index % count], by: scalarsSSL[index % count]) ? 1 : 0
        })
    run.compare(
        "\(label) secret-scalar", unit: "ops/s",
        emrtd: { index in
            sink &+= ((try? curve.multiplySecret(points[index % count], by: scalars[index % count])) == nil) ? 1 : 0
        },
        reference: { index in
            sink &+= reference.multiply(pointsSSL[index % count], by: scalarsSSL[index % count]) ? 1 : 0
        })
    run.compare(
        "\(label) fixed-base", unit: "ops/s",
        emrtd: { index in sink &+= ((try? curve.multiplyGenerator(by: scalars[index % count])) == nil) ? 1 : 0 },
        reference: { index in sink &+= reference.multiply(nil, by: scalarsSSL[index % count]) ? 1 : 0 })

    // ECDSA: OpenSSL signs random digests; both sides verify the same signatures.
    var signatures: [(digest: [UInt8], key: Int, r: BigInt, s: BigInt)] = []
    for index in 0..<count {
        let digest = openSSLRandomBytes(min(64, curve.orderLength))
        guard let (r, s) = reference.sign(digest: digest, privateKey: scalars[index] + BigInt(7)) else {
            throw BenchFailure("OpenSSL cannot sign on \(label)")
        }
        signatures.append((digest, index, r, s))
    }
    let keysSSL = pointsSSL.map(reference.verificationKey)
    let signaturesSSL = signatures.map { reference.signature(r: $0.r, s: $0.s) }
    defer {
        for item in keysSSL { copenssl_ec_key_free(item) }
        for item in signaturesSSL { ECDSA_SIG_free(item) }
    }
    run.compare(
        "\(label) ecdsa-verify", unit: "ops/s",
        emrtd: { index in
            let signature = signatures[index % count]
            let valid = try? ECDSA.verify(
                publicKey: points[signature.key], digest: signature.digest,
                signature: ECDSASignature(r: signature.r, s: signature.s), curve: curve)
            sink &+= valid == true ? 1 : 0
        },
        reference: { index in
            let signature = signatures[index % count]
            sink &+=
                reference.verify(
                    digest: signature.digest, signature: signaturesSSL[index % count], key: keysSSL[signature.key])
                ? 1 : 0
        })
    // Reading `sink` keeps the optimiser from dropping the work measured.
    if sink == 42 { print("") }
}

private func benchGroup(_ group: DHGroup, label: String, run: BenchRun) throws {
    let count = 16
    guard let q = group.subgroupOrder else { throw BenchFailure("\(label) has no subgroup order") }
    let exponents = try (0..<count).map { _ in try BigInt.random(below: q) }
    let bases = try exponents.map { try group.generatorPower($0 + BigInt(3)) }
    guard let context = BN_CTX_new(), let montgomery = BN_MONT_CTX_new() else {
        throw BenchFailure("OpenSSL cannot allocate for \(label)")
    }
    let p = openSSLNumber(group.p)
    let g = openSSLNumber(group.g)
    let exponentsSSL = exponents.map(openSSLNumber)
    let basesSSL = bases.map(openSSLNumber)
    let result = BN_new()
    BN_MONT_CTX_set(montgomery, p, context)
    defer {
        for item in exponentsSSL + basesSSL + [p, g, result] { BN_free(item) }
        BN_MONT_CTX_free(montgomery)
        BN_CTX_free(context)
    }
    var sink = 0
    run.compare(
        "\(label) variable-base", unit: "ops/s",
        emrtd: { index in sink &+= group.power(bases[index % count], exponents[index % count]).isZero ? 1 : 0 },
        reference: { index in
            sink &+= Int(
                BN_mod_exp_mont(result, basesSSL[index % count], exponentsSSL[index % count], p, context, montgomery))
        })
    run.compare(
        "\(label) secret-exponent", unit: "ops/s",
        emrtd: { index in
            sink &+= ((try? group.powerSecret(bases[index % count], exponents[index % count])) == nil) ? 1 : 0
        },
        reference: { index in
            sink &+= Int(
                BN_mod_exp_mont_consttime(
                    result, basesSSL[index % count], exponentsSSL[index % count], p, context, montgomery))
        })
    run.compare(
        "\(label) fixed-base", unit: "ops/s",
        emrtd: { index in sink &+= ((try? group.generatorPower(exponents[index % count])) == nil) ? 1 : 0 },
        reference: { index in
            sink &+= Int(BN_mod_exp_mont(result, g, exponentsSSL[index % count], p, context, montgomery))
        })
    // Reading `sink` keeps the optimiser from dropping the work measured.
    if sink == 42 { print("") }
}
