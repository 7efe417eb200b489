import Arithmetic
import Testing

/// Explicit domain parameters beyond `DomainParameterLimits` fail with `domainParametersTooLarge`
/// before anything costly runs: the inputs below are not primes, so had a primality test or a
/// point decoding run first, the error would have been `invalidDomainParameters` or
/// `malformedEncoding` instead.
@Suite struct DomainParameterLimitTests {
    /// An odd 20000-bit number (not prime).
    let huge = [0x80] + [UInt8](repeating: 0, count: 2498) + [0x01]

    func isTooLarge(_ error: any Error) -> Bool {
        (error as? ArithmeticError)?.code == .domainParametersTooLarge
    }

    @Test func oversizedCurveField() throws {
        #expect(DomainParameterLimits.maximumCurveFieldBits == 521)
        let hugeX = [UInt8](repeating: 0x11, count: huge.count)
        #expect {
            try EllipticCurve(p: huge, a: [1], b: [2], generator: [0x02] + hugeX, order: huge, cofactor: [1])
        } throws: { isTooLarge($0) }
        #expect {
            try EllipticCurve(
                p: BigInt(bytes: huge), a: BigInt(1), b: BigInt(2), generator: .affine(x: BigInt(1), y: BigInt(2)),
                order: BigInt(bytes: huge), cofactor: BigInt(1))
        } throws: { isTooLarge($0) }
        // 522 bits: one above P-521.
        let p522 = [0x03] + [UInt8](repeating: 0xFF, count: 65)
        #expect {
            try EllipticCurve(p: p522, a: [1], b: [2], generator: [0x02, 0x01], order: [0x0F], cofactor: [])
        } throws: { isTooLarge($0) }
    }

    @Test func orderAndCofactorBoundToTheField() throws {
        let curve = try #require(StandardDomainParameters.curve(id: 13))
        #expect {
            try EllipticCurve(
                p: curve.p, a: curve.a, b: curve.b, generator: curve.generator, order: curve.p * curve.p,
                cofactor: BigInt(1))
        } throws: { isTooLarge($0) }
        #expect {
            try EllipticCurve(
                p: curve.p, a: curve.a, b: curve.b, generator: curve.generator, order: curve.order,
                cofactor: BigInt(1) << 17)
        } throws: { isTooLarge($0) }
    }

    @Test func theLargestStandardCurvePasses() throws {
        let curve = try #require(StandardDomainParameters.curve(id: 18))
        #expect(curve.p.bitWidth == 521)
        let rebuilt = try EllipticCurve(
            p: try curve.p.bytes(length: 66), a: try curve.a.bytes(length: 66), b: try curve.b.bytes(length: 66),
            generator: try curve.encode(curve.generator), order: try curve.order.bytes(length: 66), cofactor: [1])
        #expect(rebuilt.standardParameterID == 18)
    }

    @Test func oversizedGroup() throws {
        #expect(DomainParameterLimits.maximumGroupModulusBits == 4096)
        #expect {
            try DHGroup(p: BigInt(bytes: huge), g: BigInt(2), subgroupOrder: BigInt(bytes: huge))
        } throws: { isTooLarge($0) }
        let group = try #require(StandardDomainParameters.group(id: 2))
        #expect {
            try DHGroup(p: group.p, g: group.g, subgroupOrder: group.p * group.p)
        } throws: { isTooLarge($0) }
    }
}
