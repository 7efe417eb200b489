import ASN1
import Arithmetic
import ICAO
import Testing

/// The vocabulary against ICAO 9303-11's tables, written out here: every PACE and CA OID the
/// standard lists decodes to its parts and encodes back to itself.
struct ProtocolIdentifierTests {
    /// 9303-11 Table "PACE object identifiers" (and TR-03110-3 A.1.1.1), by dotted OID.
    static let paceTable: [(String, PACEMapping, KeyAgreement, BlockCipher)] = [
        ("0.4.0.127.0.7.2.2.4.1.1", .genericMapping, .dh, .tripleDES),
        ("0.4.0.127.0.7.2.2.4.1.2", .genericMapping, .dh, .aes128),
        ("0.4.0.127.0.7.2.2.4.1.3", .genericMapping, .dh, .aes192),
        ("0.4.0.127.0.7.2.2.4.1.4", .genericMapping, .dh, .aes256),
        ("0.4.0.127.0.7.2.2.4.2.1", .genericMapping, .ecdh, .tripleDES),
        ("0.4.0.127.0.7.2.2.4.2.2", .genericMapping, .ecdh, .aes128),
        ("0.4.0.127.0.7.2.2.4.2.3", .genericMapping, .ecdh, .aes192),
        ("0.4.0.127.0.7.2.2.4.2.4", .genericMapping, .ecdh, .aes256),
        ("0.4.0.127.0.7.2.2.4.3.1", .integratedMapping, .dh, .tripleDES),
        ("0.4.0.127.0.7.2.2.4.3.2", .integratedMapping, .dh, .aes128),
        ("0.4.0.127.0.7.2.2.4.3.3", .integratedMapping, .dh, .aes192),
        ("0.4.0.127.0.7.2.2.4.3.4", .integratedMapping, .dh, .aes256),
        ("0.4.0.127.0.7.2.2.4.4.1", .integratedMapping, .ecdh, .tripleDES),
        ("0.4.0.127.0.7.2.2.4.4.2", .integratedMapping, .ecdh, .aes128),
        ("0.4.0.127.0.7.2.2.4.4.3", .integratedMapping, .ecdh, .aes192),
        ("0.4.0.127.0.7.2.2.4.4.4", .integratedMapping, .ecdh, .aes256),
        ("0.4.0.127.0.7.2.2.4.6.2", .chipAuthenticationMapping, .ecdh, .aes128),
        ("0.4.0.127.0.7.2.2.4.6.3", .chipAuthenticationMapping, .ecdh, .aes192),
        ("0.4.0.127.0.7.2.2.4.6.4", .chipAuthenticationMapping, .ecdh, .aes256),
    ]

    @Test func everyPACEObjectIdentifierDecodesAndEncodesBack() throws {
        for (dotted, mapping, keyAgreement, cipher) in Self.paceTable {
            let identifier = try #require(ASN1ObjectIdentifier(dotted: dotted))
            let decoded = try #require(PACEProtocol(identifier), "\(dotted)")
            #expect(decoded.mapping == mapping && decoded.keyAgreement == keyAgreement && decoded.cipher == cipher)
            #expect(decoded.identifier == identifier)
            // The description is the OID's name in the ASN1 package's table.
            #expect(decoded.description == identifier.name)
        }
    }

    @Test func combinationsTheStandardLacksAreRefused() throws {
        #expect(PACEProtocol(mapping: .chipAuthenticationMapping, keyAgreement: .dh, cipher: .aes128) == nil)
        #expect(PACEProtocol(mapping: .chipAuthenticationMapping, keyAgreement: .ecdh, cipher: .tripleDES) == nil)
        for dotted in [
            "0.4.0.127.0.7.2.2.4.6.1", "0.4.0.127.0.7.2.2.4.5.2", "0.4.0.127.0.7.2.2.4.2.5",
            "0.4.0.127.0.7.2.2.4.2", "0.4.0.127.0.7.2.2.3.2.2", "0.4.0.127.0.7.2.2.4.2.2.1",
        ] {
            #expect(PACEProtocol(try #require(ASN1ObjectIdentifier(dotted: dotted))) == nil, "\(dotted)")
        }
    }

    @Test func everyChipAuthenticationObjectIdentifierDecodesAndEncodesBack() throws {
        for (family, keyAgreement) in [(1, KeyAgreement.dh), (2, .ecdh)] {
            for cipher in BlockCipher.allCases {
                let dotted = "0.4.0.127.0.7.2.2.3.\(family).\(cipher.protocolArc)"
                let identifier = try #require(ASN1ObjectIdentifier(dotted: dotted))
                let decoded = try #require(ChipAuthenticationProtocol(identifier))
                #expect(decoded.keyAgreement == keyAgreement && decoded.cipher == cipher)
                #expect(decoded.identifier == identifier)
                #expect(decoded.description == identifier.name)
            }
            let publicKey = try #require(ASN1ObjectIdentifier(dotted: "0.4.0.127.0.7.2.2.1.\(family)"))
            #expect(ChipAuthenticationProtocol.keyAgreement(of: publicKey) == keyAgreement)
        }
    }

    @Test func standardizedDomainParametersFollowTheTable() throws {
        #expect(StandardizedDomainParameters.allCases.map(\.id) == [0, 1, 2] + Array(8...18))
        for id in [3, 4, 5, 6, 7, 19, 31, -1] { #expect(StandardizedDomainParameters(id: id) == nil) }
        #expect(StandardizedDomainParameters(id: 13) == .brainpoolP256r1)
        #expect(StandardizedDomainParameters(id: 2)?.keyAgreement == .dh)
        #expect(StandardizedDomainParameters(id: 8)?.keyAgreement == .ecdh)
        for parameters in StandardizedDomainParameters.allCases {
            if let curve = parameters.curveIdentifier {
                #expect(StandardizedDomainParameters(curveIdentifier: curve) == parameters)
                // The ASN1 package names the same OID the same way (X9.62's names for P-192, P-256).
                let x962Names: [StandardizedDomainParameters: String] = [
                    .secp192r1: "prime192v1", .secp256r1: "prime256v1",
                ]
                #expect(curve.name == (x962Names[parameters] ?? parameters.name), "\(parameters)")
            } else {
                #expect(parameters.keyAgreement == .dh)
            }
        }
    }
}

/// The one table: each ID's curve or group, and explicit parameters named by it.
@Suite struct DomainParameterTableTests {
    @Test(arguments: StandardizedDomainParameters.allCases)
    func eachIdHasItsCurveOrGroup(parameters: StandardizedDomainParameters) throws {
        let oids: [Int: ASN1ObjectIdentifier] = [
            8: "1.2.840.10045.3.1.1", 9: "1.3.36.3.3.2.8.1.1.3", 10: "1.3.132.0.33", 11: "1.3.36.3.3.2.8.1.1.5",
            12: "1.2.840.10045.3.1.7", 13: "1.3.36.3.3.2.8.1.1.7", 14: "1.3.36.3.3.2.8.1.1.9", 15: "1.3.132.0.34",
            16: "1.3.36.3.3.2.8.1.1.11", 17: "1.3.36.3.3.2.8.1.1.13", 18: "1.3.132.0.35",
        ]
        #expect(parameters.curveIdentifier == oids[parameters.id])
        switch parameters.domainParameters {
        case .ellipticCurve(let curve):
            #expect(parameters.keyAgreement == .ecdh)
            #expect(curve.standardParameterID == parameters.id)
            #expect(curve.p.bitWidth == parameters.fieldBits)
            let length = curve.coordinateLength
            for compressed in [false, true] {
                let named = StandardizedDomainParameters(
                    explicitCurve: [0, 0] + (try curve.p.bytes(length: length)), a: try curve.a.bytes(length: length),
                    b: try curve.b.bytes(length: length),
                    generator: try curve.encode(curve.generator, compressed: compressed),
                    order: try curve.order.bytes(length: length))
                #expect(named == parameters)
            }
            let other = StandardizedDomainParameters(
                explicitCurve: try curve.p.bytes(length: length), a: try curve.a.bytes(length: length),
                b: try (curve.b + BigInt(1)).bytes(length: length), generator: try curve.encode(curve.generator),
                order: try curve.order.bytes(length: length))
            #expect(other == nil)
        case .dhGroup(let group):
            #expect(parameters.keyAgreement == .dh)
            #expect(group.standardParameterID == parameters.id)
            #expect(group.p.bitWidth == parameters.fieldBits)
            let p = try group.p.bytes(length: group.length)
            let g = try group.g.bytes(length: group.length)
            let q = try #require(group.subgroupOrder).bytes(length: 32)
            #expect(StandardizedDomainParameters(explicitGroup: p, generator: g, order: q) == parameters)
            #expect(StandardizedDomainParameters(explicitGroup: p, generator: g) == parameters)
            #expect(StandardizedDomainParameters(explicitGroup: p, generator: [2]) == nil)
        }
    }

    /// A 20000-bit "prime" is compared by size and named nothing, without building anything.
    @Test func oversizedParametersAreNotNamed() {
        let huge = [0x80] + [UInt8](repeating: 0, count: 2499)
        #expect(
            StandardizedDomainParameters(explicitCurve: huge, a: [1], b: [2], generator: [0x02] + huge, order: huge)
                == nil)
        #expect(StandardizedDomainParameters(explicitGroup: huge, generator: [2], order: huge) == nil)
    }
}
