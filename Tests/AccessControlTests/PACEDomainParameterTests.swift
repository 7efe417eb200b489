import ASN1
import Arithmetic
import ICAO
import TestSupport
import Testing

@testable import AccessControl

/// A chip's own domain parameters (a PACEInfo with a proprietary `parameterId` and the
/// PACEDomainParameterInfo that holds them), here the explicit forms of G.1's curve and G.2's
/// group: the runs are the published ones, MSE:Set AT naming ID 32.
@Suite struct PACEDomainParameterTests {
    /// ```
    /// PACEDomainParameterInfo ::= SEQUENCE { protocol id-PACE-<KA>-<mapping>,
    ///     domainParameter AlgorithmIdentifier, parameterId INTEGER }
    /// ```
    static func domainParameterInfo(
        _ protocolIdentifier: ASN1ObjectIdentifier, _ algorithm: [UInt8], id: Int? = 32
    ) -> [UInt8] {
        DER.sequence([DER.objectIdentifier(protocolIdentifier), algorithm] + (id.map { [DER.integer($0)] } ?? []))
    }

    /// `{ id-ecPublicKey, SpecifiedECDomain { 1, { prime-field, p }, { a, b }, G, n, h } }` of brainpoolP256r1.
    static func explicitBrainpoolP256r1() throws -> [UInt8] {
        let curve = try #require(StandardizedDomainParameters.brainpoolP256r1.curve)
        return DER.sequence([
            DER.objectIdentifier("1.2.840.10045.2.1"),
            DER.sequence([
                DER.integer(1),
                DER.sequence([DER.objectIdentifier("1.2.840.10045.1.1"), DER.unsignedInteger(curve.p.minimalBytes)]),
                DER.sequence([
                    DER.octetString(try curve.a.bytes(length: 32)), DER.octetString(try curve.b.bytes(length: 32)),
                ]),
                DER.octetString(try curve.encode(curve.generator)), DER.unsignedInteger(curve.order.minimalBytes),
                DER.integer(1),
            ]),
        ])
    }

    /// `{ dhpublicnumber, DomainParameters { p, g, q } }` of the 1024-bit MODP group (ID 0).
    static func explicitModp1024() throws -> [UInt8] {
        let group = try #require(StandardizedDomainParameters.modp1024Subgroup160.group)
        let q = try #require(group.subgroupOrder)
        return DER.sequence([
            DER.objectIdentifier("1.2.840.10046.2.1"),
            DER.sequence([
                DER.unsignedInteger(group.p.minimalBytes), DER.unsignedInteger(group.g.minimalBytes),
                DER.unsignedInteger(q.minimalBytes),
            ]),
        ])
    }

    @Test func explicitCurveFromAPACEDomainParameterInfo() throws {
        var example = WorkedExample.genericMappingECDH
        example.parameterId = 32
        example.setAuthenticationTemplate = "0022C1A412800A04007F00070202040202830101840120"
        example.domainParameterInfos = [
            Self.domainParameterInfo("0.4.0.127.0.7.2.2.4.2", try Self.explicitBrainpoolP256r1())
        ]
        #expect(try PACEWorkedExampleTests.replay(example).result.parameterId == 32)
    }

    /// A PACEInfo without `parameterId` and the one PACEDomainParameterInfo without an ID: MSE:Set AT
    /// has no DO'84', and is then the transcript superLOL53/AndroidPassportReader publishes for G.1.
    @Test func parametersWithoutAnID() throws {
        var example = WorkedExample.genericMappingECDH
        example.parameterId = nil
        example.setAuthenticationTemplate = "0022C1A40F800A04007F00070202040202830101"
        example.domainParameterInfos = [
            Self.domainParameterInfo("0.4.0.127.0.7.2.2.4.2", try Self.explicitBrainpoolP256r1(), id: nil)
        ]
        #expect(try PACEWorkedExampleTests.replay(example).result.parameterId == nil)
    }

    @Test func explicitGroupFromAPACEDomainParameterInfo() throws {
        var example = WorkedExample.genericMappingDH
        example.parameterId = 32
        example.setAuthenticationTemplate = "0022C1A412800A04007F00070202040102830101840120"
        example.domainParameterInfos = [Self.domainParameterInfo("0.4.0.127.0.7.2.2.4.1", try Self.explicitModp1024())]
        #expect(try PACEWorkedExampleTests.replay(example).result.parameterId == 32)
    }

    /// A group named for an ECDH protocol, an ID no PACEDomainParameterInfo holds, a reserved
    /// standardized ID, an ID MSE:Set AT cannot carry, and no ID with two candidate
    /// PACEDomainParameterInfos: refused before anything is sent.
    @Test func unusableParametersAreRefusedBeforeMSESetAT() throws {
        var groupForCurve = WorkedExample.genericMappingECDH
        groupForCurve.parameterId = 32
        groupForCurve.domainParameterInfos = [
            Self.domainParameterInfo("0.4.0.127.0.7.2.2.4.2", try Self.explicitModp1024())
        ]
        var missing = WorkedExample.genericMappingECDH
        missing.parameterId = 33
        var reserved = WorkedExample.genericMappingECDH
        reserved.parameterId = 5
        var negative = WorkedExample.genericMappingECDH
        negative.parameterId = -1
        negative.domainParameterInfos = [
            DER.sequence([
                DER.objectIdentifier("0.4.0.127.0.7.2.2.4.2"),
                DER.sequence([DER.objectIdentifier("0.4.0.127.0.7.1.2"), DER.integer(13)]), DER.integer(-1),
            ])
        ]
        var ambiguous = WorkedExample.genericMappingECDH
        ambiguous.parameterId = nil
        ambiguous.domainParameterInfos = [
            Self.domainParameterInfo("0.4.0.127.0.7.2.2.4.2", try Self.explicitBrainpoolP256r1(), id: nil),
            Self.domainParameterInfo("0.4.0.127.0.7.2.2.4.2", try Self.explicitBrainpoolP256r1(), id: nil),
        ]
        for example in [groupForCurve, missing, reserved, negative, ambiguous] {
            let failure = try #require(try PACEChecksTests.failure([], example: example))
            #expect(failure.error.code == .notSupported, "\(failure.error)")
            #expect(failure.beforeMutualAuthentication)
        }
    }
}
