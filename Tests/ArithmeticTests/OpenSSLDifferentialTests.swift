import OpenSSLReference
import Secrets
import Testing

@testable import Arithmetic

/// Differential tests against OpenSSL on random inputs, for every standardized parameter set.
@Suite struct OpenSSLDifferentialTests {
    /// Our domain parameter table equals OpenSSL's built-in curves.
    @Test(arguments: standardCurveIDs)
    func domainParametersMatchOpenSSL(id: Int) throws {
        let curve = try #require(standardCurve(id))
        let reference = try #require(OpenSSLCurve(parameterID: id))
        let parameters = reference.parameters
        #expect(curve.p == parameters.p)
        #expect(curve.a == parameters.a)
        #expect(curve.b == parameters.b)
        #expect(curve.order == parameters.order)
        #expect(curve.cofactor == parameters.cofactor)
        #expect(try curve.encode(curve.generator) == parameters.generator)
    }

    /// k·P on random points P (made by OpenSSL) and random scalars: the public, secret and fixed-base
    /// paths all agree with OpenSSL's EC_POINT_mul.
    @Test(arguments: standardCurveIDs)
    func scalarMultiplicationMatchesOpenSSL(id: Int) throws {
        let curve = try #require(standardCurve(id))
        let reference = try #require(OpenSSLCurve(parameterID: id))
        for _ in 0..<differentialCases(default: 8) {
            let pointScalar = try BigInt.random(below: curve.order, using: openSSLRandomSource)
            let pointBytes = try #require(reference.multiply(nil, by: pointScalar))
            let point = try curve.decodePoint(pointBytes)
            let k = try BigInt.random(below: curve.order, using: openSSLRandomSource)
            let expected = try #require(reference.multiply(pointBytes, by: k))
            #expect(try curve.encode(curve.multiply(point, by: k)) == expected)
            #expect(try curve.encode(curve.multiplySecret(point, by: k)) == expected)
            #expect(try curve.encode(curve.multiplyGenerator(by: k)) == reference.multiply(nil, by: k))
        }
    }

    /// Scalars at the edges, where the regular schedules meet their exceptional additions: 1, 2, …
    /// and n - 1, n - 2, … (k even is replaced by n - k, so both ends exercise the last window).
    @Test(arguments: standardCurveIDs)
    func edgeScalarsMatchOpenSSL(id: Int) throws {
        let curve = try #require(standardCurve(id))
        let reference = try #require(OpenSSLCurve(parameterID: id))
        let point = try curve.decodePoint(try #require(reference.multiply(nil, by: BigInt(0x1234_5678_9ABC))))
        let pointBytes = try curve.encode(point)
        let small = (1...6).map { BigInt($0) }
        let nearOrder = (1...36).map { curve.order - BigInt($0) }
        for k in small + nearOrder {
            let expected = try #require(reference.multiply(pointBytes, by: k))
            #expect(try curve.encode(curve.multiplySecret(point, by: k)) == expected, "k = \(k)")
            #expect(try curve.encode(curve.multiplyGenerator(by: k)) == reference.multiply(nil, by: k), "k = \(k)")
            #expect(try curve.encode(curve.multiply(point, by: k)) == expected, "k = \(k)")
        }
        #expect(curve.multiply(point, by: curve.order) == .infinity)
        #expect(throws: ArithmeticError.self) { try curve.multiplySecret(point, by: curve.order) }
    }

    /// Point decoding: OpenSSL's compressed and uncompressed encodings of random points decode to the
    /// same point; random x-coordinates are accepted or rejected as OpenSSL does.
    @Test(arguments: standardCurveIDs)
    func pointDecodingMatchesOpenSSL(id: Int) throws {
        let curve = try #require(standardCurve(id))
        let reference = try #require(OpenSSLCurve(parameterID: id))
        for _ in 0..<differentialCases(default: 16) {
            let k = try BigInt.random(below: curve.order, using: openSSLRandomSource)
            let uncompressed = try #require(reference.multiply(nil, by: k))
            let compressed = try #require(reference.multiply(nil, by: k, compressed: true))
            #expect(try curve.encode(curve.decodePoint(compressed)) == uncompressed)
            #expect(try curve.encode(curve.decodePoint(uncompressed), compressed: true) == compressed)

            let x = BigInt(bytes: openSSLRandomBytes(curve.coordinateLength)).modulo(curve.p)
            let candidate = [UInt8(2 + (k.isOdd ? 1 : 0))] + (try x.bytes(length: curve.coordinateLength))
            let ours = try? curve.encode(curve.decodePoint(candidate))
            #expect(ours == reference.decode(candidate))
        }
    }

    /// ECDSA: OpenSSL's signatures over random digests of every SHA length verify (DER and plain);
    /// tampered digests and signatures do not.
    @Test(arguments: standardCurveIDs)
    func ecdsaVerifiesOpenSSLSignatures(id: Int) throws {
        let curve = try #require(standardCurve(id))
        let reference = try #require(OpenSSLCurve(parameterID: id))
        let digestLengths = [20, 28, 32, 48, 64]
        for index in 0..<differentialCases(default: 10) {
            let privateKey = try BigInt.random(below: curve.order, using: openSSLRandomSource)
            let publicKey = try #require(reference.multiply(nil, by: privateKey))
            let digest = openSSLRandomBytes(digestLengths[index % digestLengths.count])
            let (r, s) = try #require(reference.sign(digest: digest, privateKey: privateKey))
            let signature = ECDSASignature(r: r, s: s)
            #expect(try ECDSA.verify(publicKey: publicKey, digest: digest, signature: signature, curve: curve))
            #expect(
                try ECDSA.verify(
                    publicKey: publicKey, digest: digest, signature: signature.derRepresentation, format: .der,
                    curve: curve))
            #expect(
                try ECDSA.verify(
                    publicKey: publicKey, digest: digest,
                    signature: signature.rawRepresentation(length: curve.orderLength), format: .plain, curve: curve))

            // Flip a bit that survives the truncation to the order's bit length.
            var flipped = digest
            flipped[index % min(digest.count, curve.order.bitWidth / 8)] ^= 0x01
            #expect(!(try ECDSA.verify(publicKey: publicKey, digest: flipped, signature: signature, curve: curve)))
            let tampered = [
                ECDSASignature(r: r + BigInt(1), s: s), ECDSASignature(r: r, s: s + BigInt(1)),
                ECDSASignature(r: s, s: r), ECDSASignature(r: r, s: (s + s).modulo(curve.order)),
                ECDSASignature(r: r + curve.order, s: s), ECDSASignature(r: BigInt(0), s: s),
            ]
            for bad in tampered {
                #expect(!(try ECDSA.verify(publicKey: publicKey, digest: digest, signature: bad, curve: curve)))
            }
            // ECDSA is malleable: (r, n - s) is valid too, for OpenSSL as for us.
            #expect(
                try ECDSA.verify(
                    publicKey: publicKey, digest: digest, signature: ECDSASignature(r: r, s: curve.order - s),
                    curve: curve))
            let otherKey = try #require(reference.multiply(nil, by: privateKey + BigInt(1)))
            #expect(!(try ECDSA.verify(publicKey: otherKey, digest: digest, signature: signature, curve: curve)))
        }
    }

    /// ECDSA on the same curve given as explicit parameters (as in CSCA/DSC certificates): identified
    /// as the named curve, and verification agrees.
    @Test(arguments: standardCurveIDs)
    func ecdsaWithExplicitParameters(id: Int) throws {
        let curve = try #require(standardCurve(id))
        let reference = try #require(OpenSSLCurve(parameterID: id))
        let parameters = reference.parameters
        let length = curve.coordinateLength
        let explicit = try EllipticCurve(
            p: parameters.p.bytes(length: length), a: parameters.a.bytes(length: length),
            b: parameters.b.bytes(length: length), generator: parameters.generator,
            order: parameters.order.minimalBytes, cofactor: parameters.cofactor.minimalBytes)
        #expect(explicit.standardParameterID == id)
        #expect(explicit == curve)
        try expectVerifiesOpenSSLSignatures(on: explicit, reference: reference, digestLength: 32, count: 1)
    }

    /// Modular exponentiation in the MODP groups: public, secret and fixed-base paths against BN_mod_exp.
    @Test(arguments: standardGroupIDs)
    func modularExponentiationMatchesOpenSSL(id: Int) throws {
        let group = try #require(StandardDomainParameters.group(id: id))
        let q = try #require(group.subgroupOrder)
        for _ in 0..<differentialCases(default: 6) {
            let base = BigInt(bytes: openSSLRandomBytes(group.length)).modulo(group.p)
            let exponent = try BigInt.random(below: q, using: openSSLRandomSource)
            let expected = try #require(openSSLModExp(base, exponent, group.p))
            #expect(group.power(base, exponent) == expected)
            #expect(try group.powerSecret(base, exponent) == expected)
            #expect(try group.generatorPower(exponent) == openSSLModExp(group.g, exponent, group.p))
            let longExponent = BigInt(bytes: openSSLRandomBytes(group.length))
            #expect(try group.generatorPower(longExponent) == openSSLModExp(group.g, longExponent, group.p))
        }
        #expect(group.g.power(q, modulo: group.p) == BigInt(1))
    }

    /// The windowed exponentiations (`WindowedPower`) at the edges against BN_mod_exp: exponents 1, 2,
    /// around a window, q - 1, q, q + 1, p - 2, p - 1 (longer than q: the regular schedule then covers
    /// them whole) and all ones; bases 1, 2, p - 1, p - 2, g and a random one; and the shared secret
    /// byte for byte.
    @Test(arguments: standardGroupIDs)
    func edgeExponentsMatchOpenSSL(id: Int) throws {
        let group = try #require(StandardDomainParameters.group(id: id))
        let q = try #require(group.subgroupOrder)
        let p = group.p
        let one = BigInt(1)
        let randomBase = BigInt(bytes: openSSLRandomBytes(group.length)).modulo(p)
        let bases = [one, BigInt(2), p - one, p - BigInt(2), group.g, randomBase]
        let exponents = [
            one, BigInt(2), BigInt(15), BigInt(16), BigInt(31), BigInt(32), q - one, q, q + one, p - BigInt(2),
            p - one, (one << q.bitWidth) - one,
        ]
        for base in bases {
            for exponent in exponents {
                let expected = try #require(openSSLModExp(base, exponent, p))
                #expect(group.power(base, exponent) == expected, "\(base)^\(exponent)")
                #expect(try group.powerSecret(base, exponent) == expected, "\(base)^\(exponent), regular")
            }
        }
        #expect(group.power(randomBase, BigInt(0)) == one)
        #expect(throws: ArithmeticError.self) { try group.powerSecret(randomBase, BigInt(0)) }
        #expect(group.power(p + BigInt(5), BigInt(3)) == BigInt(125))
        let (privateKey, _) = try group.generateKeyPair(random: openSSLRandomSource)
        let peer = try group.generatorPower(try BigInt.random(below: q, using: openSSLRandomSource))
        let expected = try #require(openSSLModExp(peer, privateKey, p))
        #expect(
            try group.sharedSecret(privateKey: privateKey, peerPublicValue: peer)
                == expected.bytes(length: group.length))
    }
}

/// OpenSSL's generator as the random source of key generation (independent of the package's own).
let openSSLRandomSource = RandomSource { count in SecretBytes(openSSLRandomBytes(count)) }
