import CVCertificates
import ICAO
import Testing

@testable import ChipAuthentication

/// EF.CVCA's trust points and the chain the reader presents from them.
@Suite struct TerminalAuthenticationPathTests {
    @Test func cvcaFileNamesOneOrTwoTrustPoints() throws {
        let one: [UInt8] = [0x42, 0x0B] + Array("UTCVCA00001".utf8) + [UInt8](repeating: 0, count: 23)
        #expect(try TerminalAuthenticationV1.trustPoints(cvcaFile: one) == ["UTCVCA00001"])
        let two: [UInt8] =
            [0x42, 0x0B] + Array("UTCVCA00002".utf8) + [0x42, 0x0B] + Array("UTCVCA00001".utf8) + [0, 0]
        #expect(try TerminalAuthenticationV1.trustPoints(cvcaFile: two) == ["UTCVCA00002", "UTCVCA00001"])
        for bad: [UInt8] in [[], [0, 0, 0], [0x42, 0x20, 0x41], [0x5F, 0x20, 0x01, 0x41]] {
            #expect(throws: ChipAuthenticationError.self) { try TerminalAuthenticationV1.trustPoints(cvcaFile: bad) }
        }
    }

    @Test func pathFollowsCARsFromATrustPointToTheTerminal() throws {
        let curve = try #require(StandardizedDomainParameters(id: 13)?.curve)
        let algorithm = TerminalAuthenticationAlgorithm.ecdsa(.sha256)
        let from = try #require(CVCDate(year: 2026, month: 1, day: 1))
        let until = try #require(CVCDate(year: 2027, month: 1, day: 1))
        func issue(_ car: String, _ chr: String, _ role: CertificateHolderAuthorization.Role) throws -> CVCertificate {
            let key = try CVCPrivateKey.generateECDSA(on: curve)
            return try CVCertificate.issue(
                authorityReference: car, publicKey: key.publicKey(algorithm: algorithm, includingCurve: role == .cvca),
                holderReference: chr, authorization: .init(inspectionSystem: role, rights: [.readDG3]),
                effectiveDate: from, expirationDate: until, signer: key, signingAlgorithm: algorithm)
        }
        let oldCVCA = try issue("UTCVCA00001", "UTCVCA00001", .cvca)
        let link = try issue("UTCVCA00001", "UTCVCA00002", .cvca)
        let dv = try issue("UTCVCA00002", "UTDV00001", .domesticDocumentVerifier)
        let terminal = try issue("UTDV00001", "UTIS00001", .terminal)
        let all = [terminal, dv, oldCVCA, link]
        #expect(try TerminalAuthenticationV1.path(from: all, trustPoints: ["UTCVCA00002"]) == [dv, terminal])
        #expect(try TerminalAuthenticationV1.path(from: all, trustPoints: ["UTCVCA00001"]) == [link, dv, terminal])
        #expect(throws: ChipAuthenticationError.self) {
            try TerminalAuthenticationV1.path(from: [dv, terminal], trustPoints: ["XXCVCA00001"])
        }
    }
}
