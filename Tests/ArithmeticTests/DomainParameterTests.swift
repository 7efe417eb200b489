import Testing

@testable import Arithmetic

@Suite struct DomainParameterTests {
    /// The ICAO 9303-11 table: ids, names, sizes (the OIDs are ICAO's, tested there).
    @Test func standardizedTable() throws {
        let expected: [(Int, String, Int)] = [
            (0, "1024-bit MODP Group with 160-bit Prime Order Subgroup", 1024),
            (1, "2048-bit MODP Group with 224-bit Prime Order Subgroup", 2048),
            (2, "2048-bit MODP Group with 256-bit Prime Order Subgroup", 2048),
            (8, "P-192", 192), (9, "brainpoolP192r1", 192),
            (10, "P-224", 224), (11, "brainpoolP224r1", 224),
            (12, "P-256", 256), (13, "brainpoolP256r1", 256),
            (14, "brainpoolP320r1", 320), (15, "P-384", 384),
            (16, "brainpoolP384r1", 384),
            (17, "brainpoolP512r1", 512),
            (18, "P-521", 521),
        ]
        #expect(StandardDomainParameters.all.map(\.id) == expected.map(\.0))
        for (id, name, bits) in expected {
            let entry = try #require(StandardDomainParameters.parameters(id: id))
            #expect(entry.name == name)
            switch entry.parameters {
            case .ellipticCurve(let curve):
                #expect(curve.p.bitWidth == bits)
                #expect(curve.name == name)
                #expect(StandardDomainParameters.curve(named: name) == curve)
                #expect(curve.isOnCurve(curve.generator))
            case .dhGroup(let group):
                #expect(group.p.bitWidth == bits)
                #expect(group.p.isProbablePrime())
                let q = try #require(group.subgroupOrder)
                #expect(((group.p - BigInt(1)).modulo(q)).isZero)
            }
        }
        for reserved in [3, 4, 5, 6, 7, 19, 31, -1] {
            #expect(StandardDomainParameters.parameters(id: reserved) == nil)
        }
    }

    /// Brainpool's r1 curves compute on their isomorphic a = -3 form (their t1 twins); NIST curves have
    /// a = -3 already. The differential tests check the results either way.
    @Test func brainpoolCurvesUseTheirAMinusThreeForm() throws {
        for id in standardCurveIDs {
            let curve = try #require(standardCurve(id))
            let isBrainpool = curve.name?.hasPrefix("brainpool") ?? false
            #expect((curve.context.isomorphism != nil) == isBrainpool, "\(curve.name ?? "")")
            #expect(curve.a == curve.p - BigInt(3) || isBrainpool)
        }
    }

    /// The 1024-bit group against the worked example's group (App. G.2, RFC 5114 section 2.1).
    @Test func modp1024MatchesWorkedExample() throws {
        let group = try #require(StandardDomainParameters.group(id: 0))
        #expect(
            group.p
                == big(
                    "B10B8F96A080E01DDE92DE5EAE5D54EC52C99FBCFB06A3C69A6A9DCA52D23B616073E28675A23D189838EF1E2EE652C013ECB4AEA906112324975C3CD49B83BFACCBDD7D90C4BD7098488E9C219A73724EFFD6FAE5644738FAA31A4FF55BCCC0A151AF5F0DC8B4BD45BF37DF365C1A65E68CFDA76D4DA708DF1FB2BC2E4A4371"
                ))
        #expect(group.subgroupOrder == big("F518AA8781A8DF278ABA4E7D64B7CB9D49462353"))
        let explicit = try DHGroup(p: group.p, g: group.g, subgroupOrder: nil)
        #expect(explicit.standardParameterID == 0)
    }

    /// A non-standard curve built from explicit parameters is not mistaken for a standard one.
    @Test func explicitNonStandardCurve() throws {
        let curve = try PointValidationTests.wei25519()
        #expect(curve.name == nil)
        #expect(curve.standardParameterID == nil)
        let (privateKey, publicKey) = try curve.generateKeyPair()
        #expect(curve.multiply(curve.generator, by: privateKey) == publicKey)
    }
}
