import ASN1
import ChipSimulator
import CryptoPrimitives
import Foundation
import Testing

@testable import CMS

/// Deviation lists (ICAO 9303-12 §10) written here, signed under the simulator's specimen PKI:
/// parsed field by field, trusted only when they chain to a trusted CSCA, and applied to the
/// specimen's own EF.SOD.
@Suite struct DeviationListTests {
    static let time = Date(timeIntervalSince1970: 1_780_000_000)  // 2026-05-28
    static let dgHashWrong: ASN1ObjectIdentifier = "2.23.136.1.1.7.2.2"
    static let dsSignature: ASN1ObjectIdentifier = "2.23.136.1.1.7.1.1"
    static let aaKeyCompromised: ASN1ObjectIdentifier = "2.23.136.1.1.7.1.4"

    /// A specimen without chip keys (no RSA key to make) and its certificates parsed.
    struct Document {
        let specimen: Specimen
        let csca: Certificate
        let dsc: Certificate
        var dataGroups: [Int: [UInt8]] {
            Dictionary(uniqueKeysWithValues: (1...16).compactMap { n in specimen.files[dataGroup: n].map { (n, $0) } })
        }

        init() throws {
            specimen = try Specimen.generate(at: DeviationListTests.time, credentials: Credentials())
            csca = try Certificate(derEncoded: specimen.countrySigningCertificate)
            dsc = try Certificate(derEncoded: specimen.documentSignerCertificate)
        }

        func verify(_ store: TrustStore, dataGroups: [Int: [UInt8]]? = nil, number: String? = nil)
            -> DataAuthenticationStatus
        {
            PassiveAuthentication.verify(
                securityObject: specimen.files.sod ?? [], dataGroups: dataGroups ?? self.dataGroups, trustStore: store,
                at: DeviationListTests.time, issuingState: "UTO", documentCode: "P<", documentNumber: number)
        }
    }

    /// DeviationDocuments' fields, as 9303-12 tags them (IMPLICIT).
    enum Criterion {
        case type(String)
        case issuerAndSerial(Certificate)
        case keyIdentifier([UInt8])
        case digest([UInt8])
        case period(Date, Date)
        case numbers([String])

        var der: [UInt8] {
            switch self {
            case .type(let code): DER.tlv(.contextSpecific(0, constructed: false), Array(code.utf8))
            case .issuerAndSerial(let certificate):
                DER.constructed(
                    .contextSpecific(1, constructed: true),
                    [certificate.issuer.encoded, DER.tlv(.integer, certificate.serialNumber)])
            case .keyIdentifier(let identifier): DER.tlv(.contextSpecific(2, constructed: false), identifier)
            case .digest(let digest): DER.tlv(.contextSpecific(3, constructed: false), digest)
            case .period(let first, let last):
                DER.constructed(
                    .contextSpecific(4, constructed: true), [DER.generalizedTime(first), DER.generalizedTime(last)])
            case .numbers(let numbers):
                DER.constructed(.contextSpecific(5, constructed: true), numbers.map(DER.printableString))
            }
        }
    }

    /// One Deviation: its criteria and one description (type, text, a Datagroup parameter).
    static func deviation(_ criteria: [Criterion], type: ASN1ObjectIdentifier, text: String, dataGroup: Int? = nil)
        -> [UInt8]
    {
        var description = [DER.printableString(text), DER.objectIdentifier(type)]
        if let dataGroup {
            description.append(DER.constructed(.contextSpecific(0, constructed: true), [DER.integer(dataGroup)]))
        }
        return DER.sequence([DER.sequence(criteria.map(\.der)), DER.set([DER.sequence(description)])])
    }

    /// DeviationList { v0, SHA-256, deviations }.
    static func content(_ deviations: [[UInt8]]) -> [UInt8] {
        DER.sequence([
            DER.integer(0), DER.sequence([DER.objectIdentifier("2.16.840.1.101.3.4.2.1")]), DER.set(deviations),
        ])
    }

    static func signed(_ deviations: [[UInt8]], by specimen: Specimen) throws -> [UInt8] {
        try specimen.signedList(contentType: DeviationList.contentType, content: content(deviations), at: time)
    }

    @Test func everyFieldIsRead() throws {
        let document = try Document()
        let first = Self.time.addingTimeInterval(-86_400 * 30)
        let bytes = try Self.signed(
            [
                Self.deviation(
                    [.type("P"), .issuerAndSerial(document.dsc), .period(first, Self.time), .numbers(["L898902C<"])],
                    type: Self.dgHashWrong, text: "DG11 hashed before padding", dataGroup: 11),
                Self.deviation([.keyIdentifier([1, 2, 3])], type: Self.aaKeyCompromised, text: "batch 7"),
                Self.deviation([.digest(Array(repeating: 0xAB, count: 32))], type: "2.23.136.1.1.7.9", text: "x"),
            ], by: document.specimen)
        let list = try DeviationList(bytes: bytes)
        #expect(list.version == 0 && list.digestAlgorithm == .sha256 && list.deviations.count == 3)
        #expect(list.signingTime == Self.time)
        // A SET OF is written sorted (DER): each deviation is found by its type.
        func deviation(_ type: ASN1ObjectIdentifier) throws -> DeviationList.Deviation {
            try #require(list.deviations.first { $0.descriptions.first?.type == type })
        }
        let documents = try deviation(Self.dgHashWrong).documents
        #expect(documents.documentType == "P" && documents.documentNumbers == ["L898902C"])
        #expect(documents.issuedFrom == first && documents.issuedUntil == Self.time)
        #expect(
            documents.certificate
                == .named(.issuerAndSerialNumber(issuer: document.dsc.issuer, serialNumber: document.dsc.serialNumber)))
        let hashWrong = try #require(deviation(Self.dgHashWrong).descriptions.first)
        #expect(hashWrong.category == .lds && hashWrong.name == "DGHashWrong" && hashWrong.dataGroup == 11)
        #expect(hashWrong.sentence == "LDS deviation DGHashWrong of DG11 (\"DG11 hashed before padding\")")
        let compromised = try deviation(Self.aaKeyCompromised)
        #expect(compromised.documents.certificate == .named(.subjectKeyIdentifier([1, 2, 3])))
        #expect(compromised.descriptions.first?.category == .certificateOrKey)
        #expect(compromised.descriptions.first?.dataGroup == nil)
        let unknown = try deviation("2.23.136.1.1.7.9")
        #expect(unknown.documents.certificate == .digest(Array(repeating: 0xAB, count: 32)))
        #expect(unknown.descriptions.first?.category == .unknown && unknown.descriptions.first?.name == nil)
    }

    @Test func aMasterListOrAnEFSODIsNotADeviationList() throws {
        let document = try Document()
        #expect(throws: CMSError.self) { try DeviationList(bytes: document.specimen.files.sod ?? []) }
        let other = try document.specimen.signedList(contentType: "2.23.136.1.1.2", content: Self.content([]))
        #expect(throws: CMSError.self) { try DeviationList(bytes: other) }
        // A deviation whose documents hold an unknown field.
        let bad = try Self.signed(
            [DER.sequence([DER.sequence([DER.tlv(.contextSpecific(9, constructed: false), [0])]), DER.set([])])],
            by: document.specimen)
        #expect(throws: CMSError.self) { try DeviationList(bytes: bad) }
    }

    @Test func aListedDocumentSignerShowsInTheVerdict() throws {
        let document = try Document()
        var store = TrustStore([document.csca])
        let unlisted = document.verify(store)
        #expect(unlisted.status == .authenticated && unlisted.failures.isEmpty)

        let list = try DeviationList(
            bytes: Self.signed(
                [
                    Self.deviation(
                        [.issuerAndSerial(document.dsc)], type: Self.dgHashWrong, text: "known", dataGroup: 11),
                    Self.deviation(
                        [.keyIdentifier(document.dsc.extensions.subjectKeyIdentifier ?? [])],
                        type: Self.aaKeyCompromised, text: "batch 7"),
                    // Another document signer of the same CSCA: not this document.
                    Self.deviation(
                        [.keyIdentifier([0xEE, 0xEE])], type: Self.dsSignature, text: "other batch"),
                ], by: document.specimen))
        let verification = store.add(deviationList: list)
        #expect(verification.isTrusted)
        #expect(store.deviationLists.count == 1 && store.deviationLists.first?.country == "UT")

        let verdict = document.verify(store)
        // Every check passed: the status stays authenticated, the two defects are named.
        #expect(verdict.status == .authenticated)
        let listed = verdict.failures.filter { $0.code == "listedDeviation" }
        #expect(listed.count == 2)
        #expect(listed.contains { $0.description.contains("DGHashWrong of DG11 (\"known\")") })
        #expect(listed.contains { $0.description.contains("AAKeyCompromised (\"batch 7\")") })
        #expect(
            listed.allSatisfy { $0.description.hasPrefix("known defect: the deviation list of UT signed 2026-05-28") })
    }

    @Test func aListedDefectThatFailsAStillFailsAndSaysSo() throws {
        let document = try Document()
        var store = TrustStore([document.csca])
        store.add(
            deviationList: try DeviationList(
                bytes: Self.signed(
                    [
                        Self.deviation(
                            [.digest(HashAlgorithm.sha256.hash(document.dsc.der))], type: Self.dgHashWrong,
                            text: "DG11 hashed before padding", dataGroup: 11)
                    ], by: document.specimen)))
        var groups = document.dataGroups
        groups[11]?[4] ^= 0x01
        let verdict = document.verify(store, dataGroups: groups)
        #expect(verdict.status == .denied)
        #expect(verdict.failures.contains(.dataGroupHashMismatch(11)))
        #expect(verdict.failures.contains { $0.code == "listedDeviation" && $0.description.contains("DG11") })
    }

    @Test func documentNumbersNarrowTheDeviation() throws {
        let document = try Document()
        var store = TrustStore([document.csca])
        store.add(
            deviationList: try DeviationList(
                bytes: Self.signed(
                    [Self.deviation([.numbers(["L898902C"]), .type("P")], type: Self.aaKeyCompromised, text: "")],
                    by: document.specimen)))
        let listed = { (verdict: DataAuthenticationStatus) in verdict.failures.count { $0.code == "listedDeviation" } }
        #expect(listed(document.verify(store, number: "L898902C<")) == 1)
        #expect(listed(document.verify(store, number: "X1234567<")) == 0)
        // A number the caller does not know does not hide the deviation.
        #expect(listed(document.verify(store)) == 1)
    }

    @Test func aListThatDoesNotVerifyIsRefused() throws {
        let document = try Document()
        var store = TrustStore([document.csca])
        let deviations = [Self.deviation([.issuerAndSerial(document.dsc)], type: Self.dsSignature, text: "x")]

        // Signed under a CSCA the store does not trust.
        let stranger = try Document()
        let foreign = store.add(deviationList: try DeviationList(bytes: Self.signed(deviations, by: stranger.specimen)))
        #expect(!foreign.isTrusted && foreign.signatureValid && foreign.signerChainValid == false)

        // The signature altered (its last byte: the SignerInfo's signature ends the ContentInfo).
        var forged = try Self.signed(deviations, by: document.specimen)
        forged[forged.count - 1] ^= 0x01
        let altered = store.add(deviationList: try DeviationList(bytes: forged))
        #expect(!altered.isTrusted && !altered.signatureValid)

        // No SignerInfo at all.
        let unsigned = DER.sequence([
            DER.objectIdentifier("1.2.840.113549.1.7.2"),
            DER.constructed(
                .contextSpecific(0, constructed: true),
                [
                    DER.sequence([
                        DER.integer(3), DER.set([]),
                        DER.sequence([
                            DER.objectIdentifier(DeviationList.contentType),
                            DER.constructed(
                                .contextSpecific(0, constructed: true), [DER.octetString(Self.content(deviations))]),
                        ]),
                        DER.set([]),
                    ])
                ]),
        ])
        let none = store.add(deviationList: try DeviationList(bytes: unsigned))
        #expect(!none.isTrusted && none.problems == [.malformedSignedData("no SignerInfo")])

        #expect(store.deviationLists.isEmpty)
        #expect(document.verify(store).failures.isEmpty)
    }

    @Test func aBundleKeepsItsDeviationListsAndLeavesOutOnesThatNoLongerVerify() throws {
        let document = try Document()
        var store = TrustStore([document.csca])
        store.add(
            deviationList: try DeviationList(
                bytes: Self.signed(
                    [Self.deviation([.issuerAndSerial(document.dsc)], type: Self.aaKeyCompromised, text: "k")],
                    by: document.specimen)))
        var reloaded = TrustStore()
        try reloaded.add(pemOrDer: Array(store.pem.utf8))
        #expect(reloaded.certificates.count == 1 && reloaded.deviationLists.count == 1)
        #expect(reloaded.deviationListProblems.isEmpty)
        #expect(document.verify(reloaded).failures.count == 1)

        // The lists beside another CSCA than the one they were verified under: left out, and said.
        let listsOnly = store.pem.components(separatedBy: "-----BEGIN CMS-----").last.map { "-----BEGIN CMS-----" + $0 }
        var orphan = TrustStore([try Document().csca])
        try orphan.add(pemOrDer: Array((listsOnly ?? "").utf8))
        #expect(orphan.deviationLists.isEmpty && orphan.deviationListProblems.count == 1)
        #expect(orphan.assemblyWarning(defaultBundleProblem: nil)?.contains("deviation lists left out") == true)
    }

    @Test func aReaderTakesADeviationListAmongItsAuthorityCertificates() throws {
        let document = try Document()
        let list = try Self.signed(
            [Self.deviation([.issuerAndSerial(document.dsc)], type: Self.aaKeyCompromised, text: "k")],
            by: document.specimen)
        // The list before the CSCA it chains to: the order of the entries does not matter.
        let store = try TrustStore.assemble(
            includingDefaultBundle: false, authorityCertificates: [list, document.specimen.countrySigningCertificate]
        ).store
        #expect(store.deviationLists.count == 1)
        #expect(document.verify(store).failures.count == 1)
        // Given as a certificate file, it is refused by name: it vouches for no CSCA.
        var certificates = TrustStore()
        #expect(throws: CMSError.self) { try certificates.add(pemOrDer: list) }

        let stranger = try Document()
        #expect(throws: CMSError.self) {
            try TrustStore.assemble(
                includingDefaultBundle: false,
                authorityCertificates: [
                    Self.signed([], by: stranger.specimen), document.specimen.countrySigningCertificate,
                ])
        }
    }

    /// Every truncation and every single-bit change of a list either parses or is a `CMSError`,
    /// and what parses is matched without a trap.
    @Test func damagedListsAreErrors() throws {
        let document = try Document()
        let bytes = try Self.signed(
            [
                Self.deviation(
                    [.type("P"), .issuerAndSerial(document.dsc), .numbers(["L898902C"])], type: Self.dgHashWrong,
                    text: "t", dataGroup: 11)
            ], by: document.specimen)
        let store = TrustStore([document.csca])
        var parsed = 0
        var variants = (0..<bytes.count).map { Array(bytes.prefix($0)) }
        for index in stride(from: 0, to: bytes.count, by: 3) {
            var flipped = bytes
            flipped[index] ^= 0x40
            variants.append(flipped)
        }
        for variant in variants {
            guard let list = try? DeviationList(bytes: variant) else { continue }
            parsed += 1
            var copy = store
            _ = copy.add(deviationList: list)
            _ = copy.deviations(signer: document.dsc, authority: document.csca)
        }
        #expect(parsed < variants.count)
    }
}
