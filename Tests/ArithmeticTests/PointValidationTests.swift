import Testing

@testable import Arithmetic

/// Every class of invalid point from outside is rejected with `invalidPoint` or `malformedEncoding`.
@Suite struct PointValidationTests {
    /// Curve25519 in short-Weierstrass form (Wei25519, cofactor 8): a curve with a small subgroup.
    static func wei25519() throws -> EllipticCurve {
        try EllipticCurve(
            p: big("7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFED"),
            a: big("2AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA984914A144"),
            b: big("7B425ED097B425ED097B425ED097B425ED097B425ED097B4260B5E9C7710C864"),
            generator: .affine(
                x: big("2AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAD245A"),
                y: big("20AE19A1B8A086B4E01EDD2C7748D14C923D4D7E6D7C61B229E9C5A27ECED3D9")),
            order: big("1000000000000000000000000000000014DEF9DEA2F79CD65812631A5CF5D3ED"),
            cofactor: BigInt(8))
    }

    @Test(arguments: standardCurveIDs)
    func invalidPointsAreRejected(id: Int) throws {
        let curve = try #require(standardCurve(id))
        let point = try curve.multiplyGenerator(by: BigInt(0xC0FFEE))
        let (x, y) = (try #require(point.x), try #require(point.y))
        let length = curve.coordinateLength
        let encoded = try curve.encode(point)

        // Off the curve.
        #expect(throws: ArithmeticError.self) { try curve.validate(.affine(x: x, y: (y + BigInt(1)).modulo(curve.p))) }
        var offCurve = encoded
        offCurve[offCurve.count - 1] ^= 0x01
        #expect(throws: ArithmeticError.self) { try curve.decodePoint(offCurve) }
        // Infinity, as a value and as the one-byte encoding 00.
        #expect(throws: ArithmeticError.self) { try curve.validate(.infinity) }
        #expect(throws: ArithmeticError.self) { try curve.decodePoint([0x00]) }
        // Coordinates out of range: x + p and y + p satisfy the equation mod p but are not field elements.
        #expect(throws: ArithmeticError.self) { try curve.validate(.affine(x: x + curve.p, y: y)) }
        #expect(throws: ArithmeticError.self) { try curve.validate(.affine(x: x, y: y + curve.p)) }
        #expect(throws: ArithmeticError.self) { try curve.validate(.affine(x: x - curve.p, y: y)) }
        if let wide = try? (x + curve.p).bytes(length: length) {
            #expect(throws: ArithmeticError.self) {
                try curve.decodePoint([0x04] + wide + (try y.bytes(length: length)))
            }
        }
        // Wrong lengths and tags.
        #expect(throws: ArithmeticError.self) { try curve.decodePoint(Array(encoded.dropLast())) }
        #expect(throws: ArithmeticError.self) { try curve.decodePoint(encoded + [0]) }
        #expect(throws: ArithmeticError.self) { try curve.decodePoint([0x05] + encoded.dropFirst()) }
        #expect(throws: ArithmeticError.self) { try curve.decodePoint([]) }
        #expect(throws: ArithmeticError.self) { try curve.decodePoint([0x02] + (try curve.p.bytes(length: length))) }
        // Key agreement refuses them too.
        #expect(throws: ArithmeticError.self) {
            try curve.sharedSecret(
                privateKey: BigInt(5), peerPublicKey: .affine(x: x, y: (y + BigInt(1)).modulo(curve.p)))
        }
        #expect(try curve.decodePoint(encoded) == point)
    }

    /// On a curve with cofactor 8, points of small order are on the curve but outside the subgroup.
    @Test func smallSubgroupPointsAreRejected() throws {
        let curve = try PointValidationTests.wei25519()
        #expect(curve.standardParameterID == nil)
        // (A/3, 0) is the image of the Montgomery point (0, 0): order 2.
        let orderTwo = ECPoint.affine(
            x: big("2AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAD2451"), y: BigInt(0))
        #expect(curve.isOnCurve(orderTwo))
        #expect(curve.double(orderTwo) == .infinity)
        #expect(throws: ArithmeticError.self) { try curve.validate(orderTwo) }
        // G + (order-2 point) is on the curve, of order 2n: also rejected.
        let mixed = curve.add(curve.generator, orderTwo)
        #expect(curve.isOnCurve(mixed))
        #expect(throws: ArithmeticError.self) { try curve.validate(mixed) }
        #expect(throws: ArithmeticError.self) { try curve.decodePoint(try curve.encode(mixed)) }
        // Subgroup points pass, and compressed decoding works with p ≡ 1 mod 4 (Tonelli–Shanks).
        let good = try curve.multiplyGenerator(by: BigInt(123_456_789))
        #expect(try curve.decodePoint(try curve.encode(good, compressed: true)) == good)
        #expect(curve.multiply(curve.generator, by: BigInt(123_456_789)) == good)
    }

    @Test func inconsistentDomainParametersAreRejected() throws {
        let curve = try #require(standardCurve(13))
        let generatorBytes = try curve.encode(curve.generator)
        let length = curve.coordinateLength
        func make(p: BigInt? = nil, a: BigInt? = nil, b: BigInt? = nil, order: BigInt? = nil) throws -> EllipticCurve {
            try EllipticCurve(
                p: (p ?? curve.p).bytes(length: length), a: (a ?? curve.a).bytes(length: length),
                b: (b ?? curve.b).bytes(length: length), generator: generatorBytes,
                order: (order ?? curve.order).minimalBytes, cofactor: [1])
        }
        #expect(try make().standardParameterID == 13)
        #expect(throws: ArithmeticError.self) { try make(b: curve.b + BigInt(1)) }
        #expect(throws: ArithmeticError.self) { try make(order: curve.order + BigInt(2)) }
        #expect(throws: ArithmeticError.self) { try make(p: curve.p + BigInt(2)) }
        #expect(throws: ArithmeticError.self) { try make(a: BigInt(0), b: BigInt(0)) }
    }

    @Test func dhPublicValuesAreValidated() throws {
        for id in standardGroupIDs {
            let group = try #require(StandardDomainParameters.group(id: id))
            let p = group.p
            for bad in [BigInt(0), BigInt(1), p - BigInt(1), p, p + BigInt(5)] {
                #expect(throws: ArithmeticError.self) { try group.validatePublicValue(bad) }
            }
            // A generator of the full group (order p - 1 has a factor other than q) is outside the subgroup.
            #expect(throws: ArithmeticError.self) { try group.validatePublicValue(p - BigInt(2)) }
            let (privateKey, publicKey) = try group.generateKeyPair()
            try group.validatePublicValue(publicKey)
            #expect(try group.decodePublicValue(group.encodePublicValue(publicKey)) == publicKey)
            #expect(throws: ArithmeticError.self) {
                try group.decodePublicValue([0] + group.encodePublicValue(publicKey))
            }
            let (otherPrivate, otherPublic) = try group.generateKeyPair()
            #expect(
                try group.sharedSecret(privateKey: privateKey, peerPublicValue: otherPublic)
                    == group.sharedSecret(privateKey: otherPrivate, peerPublicValue: publicKey))
        }
    }
}
