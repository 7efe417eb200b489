import ASN1
import Arithmetic
import CVCertificates
import CryptoPrimitives
import Foundation
import ICAO
import Secrets
import TestSupport
import Testing

/// A test PKI made here: CVCA → DV → inspection system, every key of one algorithm.
struct TestPKI {
    let cvca: CVCertificate
    let dv: CVCertificate
    let terminal: CVCertificate
    let cvcaKey: CVCPrivateKey
    let dvKey: CVCPrivateKey
    let terminalKey: CVCPrivateKey

    static let from = CVCDate(year: 2026, month: 1, day: 1)!
    static let until = CVCDate(year: 2027, month: 12, day: 31)!

    init(
        algorithm: TerminalAuthenticationAlgorithm, curve: EllipticCurve? = nil, rsaBits: Int = 1024,
        terminalRights: CertificateHolderAuthorization.InspectionRights = [.readDG3, .readDG4],
        dvRights: CertificateHolderAuthorization.InspectionRights = [.readDG3, .readDG4],
        terminalUntil: CVCDate = TestPKI.until
    ) throws {
        func key() throws -> CVCPrivateKey {
            if let curve { return try CVCPrivateKey.generateECDSA(on: curve) }
            return try CVCPrivateKey.generateRSA(bits: rsaBits)
        }
        (cvcaKey, dvKey, terminalKey) = (try key(), try key(), try key())
        cvca = try CVCertificate.issue(
            authorityReference: "UTCVCA00001", publicKey: cvcaKey.publicKey(algorithm: algorithm, includingCurve: true),
            holderReference: "UTCVCA00001",
            authorization: .init(inspectionSystem: .cvca, rights: [.readDG3, .readDG4]),
            effectiveDate: Self.from, expirationDate: Self.until, signer: cvcaKey, signingAlgorithm: algorithm)
        dv = try CVCertificate.issue(
            authorityReference: "UTCVCA00001", publicKey: dvKey.publicKey(algorithm: algorithm, includingCurve: false),
            holderReference: "UTDV000001",
            authorization: .init(inspectionSystem: .domesticDocumentVerifier, rights: dvRights),
            effectiveDate: Self.from, expirationDate: Self.until, signer: cvcaKey, signingAlgorithm: algorithm)
        terminal = try CVCertificate.issue(
            authorityReference: "UTDV000001",
            publicKey: terminalKey.publicKey(algorithm: algorithm, includingCurve: false),
            holderReference: "UTIS000001",
            authorization: .init(inspectionSystem: .terminal, rights: terminalRights), effectiveDate: Self.from,
            expirationDate: terminalUntil, signer: dvKey, signingAlgorithm: algorithm)
    }
}

@Suite struct CVCertificateTests {
    static let today = CVCDate(year: 2026, month: 12, day: 2)!

    @Test func dateIsUnpackedBCD() throws {
        let date = try CVCDate(bcd: [0x02, 0x06, 0x01, 0x02, 0x00, 0x02], field: "test")
        #expect(date == CVCDate(year: 2026, month: 12, day: 2))
        #expect(date.bcd == [2, 6, 1, 2, 0, 2])
        #expect(throws: CVCError.self) { try CVCDate(bcd: [0x02, 0x06, 0x01, 0x03, 0x00, 0x02], field: "test") }
        #expect(throws: CVCError.self) { try CVCDate(bcd: [0x26, 0x12, 0x02], field: "test") }
    }

    @Test func algorithmsRoundTripTheirOIDs() {
        for algorithm in TerminalAuthenticationAlgorithm.allCases {
            #expect(TerminalAuthenticationAlgorithm(objectIdentifier: algorithm.objectIdentifier) == algorithm)
            #expect(TerminalAuthenticationAlgorithm(name: algorithm.name) == algorithm)
        }
        #expect(TerminalAuthenticationAlgorithm.ecdsa(.sha256).objectIdentifier.dotted == "0.4.0.127.0.7.2.2.2.2.3")
        #expect(TerminalAuthenticationAlgorithm.rsaPSS(.sha512).objectIdentifier.dotted == "0.4.0.127.0.7.2.2.2.1.6")
    }

    @Test(arguments: [8, 10, 11, 12, 13, 14, 15, 16, 17, 18])
    func ecdsaChainOnEveryStandardizedCurve(id: Int) throws {
        let curve = try #require(StandardizedDomainParameters(id: id)?.curve)
        let hashes: [HashAlgorithm] = [.sha1, .sha224, .sha256, .sha384, .sha512]
        let pki = try TestPKI(algorithm: .ecdsa(hashes[id % hashes.count]), curve: curve)
        let chain = try CVCChain(trustPoint: pki.cvca, certificates: [pki.dv, pki.terminal], at: Self.today)
        #expect(chain.effectiveAuthorization.inspectionRights == [.readDG3, .readDG4])
        #expect(chain.terminalKey.curveParameters == pki.cvca.publicKey.curveParameters)
        for certificate in [pki.cvca, pki.dv, pki.terminal] {
            #expect(try CVCertificate(encoded: certificate.encoded) == certificate)
        }
    }

    @Test func ecdsaOnAnExplicitCurveThatIsNoStandardOne() throws {
        // secp256k1: a prime curve none of 9303's IDs names, carried as explicit parameters.
        let curve = try EllipticCurve(
            p: Hex.decode("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFC2F")!, a: [0], b: [7],
            generator: Hex.decode(
                "0479BE667EF9DCBBAC55A06295CE870B07029BFCDB2DCE28D959F2815B16F81798483ADA7726A3C4655DA4FBFC0E1108A8FD17B448A68554199C47D08FFB10D4B8"
            )!, order: Hex.decode("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141")!, cofactor: [1])
        let pki = try TestPKI(algorithm: .ecdsa(.sha256), curve: curve)
        _ = try CVCChain(trustPoint: pki.cvca, certificates: [pki.dv, pki.terminal], at: Self.today)
        #expect(pki.cvca.publicKey.curveParameters?.standardized == nil)
    }

    @Test(arguments: [
        TerminalAuthenticationAlgorithm.rsaPKCS1(.sha1), .rsaPKCS1(.sha256), .rsaPKCS1(.sha512), .rsaPSS(.sha1),
        .rsaPSS(.sha256), .rsaPSS(.sha512),
    ])
    func rsaChain(algorithm: TerminalAuthenticationAlgorithm) throws {
        let pki = try TestPKI(algorithm: algorithm, rsaBits: 1536)
        _ = try CVCChain(trustPoint: pki.cvca, certificates: [pki.dv, pki.terminal], at: Self.today)
    }

    @Test func rightsAreWhatEveryCertificateGrants() throws {
        let curve = try #require(StandardizedDomainParameters(id: 12)?.curve)
        let pki = try TestPKI(algorithm: .ecdsa(.sha256), curve: curve, dvRights: [.readDG3])
        let chain = try CVCChain(trustPoint: pki.cvca, certificates: [pki.dv, pki.terminal])
        #expect(chain.effectiveAuthorization.inspectionRights == [.readDG3])
        #expect(chain.effectiveAuthorization.role == .terminal)
    }

    /// A link certificate: the old CVCA (P-256) signs the new one (brainpoolP384r1, its own curve),
    /// whose key signs the DV; the DV and IS inherit the new curve.
    @Test func linkCertificateBringsANewCurve() throws {
        let oldCurve = try #require(StandardizedDomainParameters(id: 12)?.curve)
        let newCurve = try #require(StandardizedDomainParameters(id: 16)?.curve)
        let algorithm = TerminalAuthenticationAlgorithm.ecdsa(.sha384)
        let old = try TestPKI(algorithm: algorithm, curve: oldCurve)
        let newKey = try CVCPrivateKey.generateECDSA(on: newCurve)
        let link = try CVCertificate.issue(
            authorityReference: "UTCVCA00001", publicKey: newKey.publicKey(algorithm: algorithm, includingCurve: true),
            holderReference: "UTCVCA00002",
            authorization: .init(inspectionSystem: .cvca, rights: [.readDG3, .readDG4]),
            effectiveDate: TestPKI.from, expirationDate: TestPKI.until, signer: old.cvcaKey, signingAlgorithm: algorithm
        )
        let dvKey = try CVCPrivateKey.generateECDSA(on: newCurve)
        let dv = try CVCertificate.issue(
            authorityReference: "UTCVCA00002", publicKey: dvKey.publicKey(algorithm: algorithm, includingCurve: false),
            holderReference: "UTDV000002",
            authorization: .init(inspectionSystem: .foreignDocumentVerifier, rights: [.readDG4]),
            effectiveDate: TestPKI.from, expirationDate: TestPKI.until, signer: newKey, signingAlgorithm: algorithm)
        let terminalKey = try CVCPrivateKey.generateECDSA(on: newCurve)
        let terminal = try CVCertificate.issue(
            authorityReference: "UTDV000002",
            publicKey: terminalKey.publicKey(algorithm: algorithm, includingCurve: false),
            holderReference: "UTIS000002",
            authorization: .init(inspectionSystem: .terminal, rights: [.readDG3, .readDG4]),
            effectiveDate: TestPKI.from, expirationDate: TestPKI.until, signer: dvKey, signingAlgorithm: algorithm)
        let chain = try CVCChain(trustPoint: old.cvca, certificates: [link, dv, terminal], at: Self.today)
        #expect(chain.terminalKey.curveParameters?.standardized?.id == 16)
        #expect(chain.effectiveAuthorization.inspectionRights == [.readDG4])
        let message = Array("challenge".utf8)
        #expect(
            try chain.terminalKey.isValidSignature(
                try terminalKey.sign(message, algorithm: algorithm), of: message, holder: "IS"))
        // Without the link, the DV does not chain to the old CVCA.
        #expect(throws: CVCError.self) { try CVCChain(trustPoint: old.cvca, certificates: [dv, terminal]) }
    }

    @Test func faultsAreTypedAndNameTheCertificate() throws {
        let curve = try #require(StandardizedDomainParameters(id: 13)?.curve)
        let pki = try TestPKI(
            algorithm: .ecdsa(.sha256), curve: curve, terminalUntil: CVCDate(year: 2026, month: 6, day: 30)!)
        func failure(_ body: () throws -> Void) -> CVCError? {
            do { try body() } catch let error as CVCError { return error } catch { return nil }
            return nil
        }
        let expired = failure {
            _ = try CVCChain(trustPoint: pki.cvca, certificates: [pki.dv, pki.terminal], at: Self.today)
        }
        #expect(expired?.code == .notValid)
        #expect(expired?.reason.contains("UTIS000001") == true)

        var forged = pki.terminal.encoded
        forged[forged.count - 1] ^= 1
        let wrongSignature = failure {
            _ = try CVCChain(trustPoint: pki.cvca, certificates: [pki.dv, try CVCertificate(encoded: forged)])
        }
        #expect(wrongSignature?.code == .badSignature)
        #expect(wrongSignature?.reason.contains("UTIS000001") == true)

        let other = try TestPKI(algorithm: .ecdsa(.sha256), curve: curve)
        let foreignDV = failure { _ = try CVCChain(trustPoint: pki.cvca, certificates: [other.dv, pki.terminal]) }
        #expect(foreignDV?.code == .badSignature)
        let missingDV = failure { _ = try CVCChain(trustPoint: pki.cvca, certificates: [pki.terminal]) }
        #expect(missingDV?.code == .wrongIssuer)
        let noTerminal = failure { _ = try CVCChain(trustPoint: pki.cvca, certificates: [pki.dv]) }
        #expect(noTerminal?.code == .wrongRole)
    }

    @Test func malformedCertificatesAreRefused() throws {
        let curve = try #require(StandardizedDomainParameters(id: 13)?.curve)
        let pki = try TestPKI(algorithm: .ecdsa(.sha256), curve: curve)
        let encoded = pki.terminal.encoded
        for length in [0, 1, 5, encoded.count / 2, encoded.count - 1] {
            #expect(throws: CVCError.self) { try CVCertificate(encoded: encoded.prefix(length)) }
        }
        #expect(throws: CVCError.self) { try CVCertificate(encoded: encoded + [0]) }
        #expect(throws: CVCError.self) { try CVCertificate(encoded: [UInt8](repeating: 0x7F, count: 9000)) }
    }

    @Test func privateKeysRoundTripPKCS8() throws {
        let curve = try #require(StandardizedDomainParameters(id: 13)?.curve)
        for key in [try CVCPrivateKey.generateECDSA(on: curve), try CVCPrivateKey.generateRSA(bits: 1024)] {
            let algorithm: TerminalAuthenticationAlgorithm =
                if case .ecdsa = key.key { .ecdsa(.sha256) } else { .rsaPSS(.sha256) }
            let again = try CVCPrivateKey(pkcs8: key.pkcs8())
            let message: [UInt8] = Array("challenge".utf8)
            let signature = try again.sign(message, algorithm: algorithm)
            let publicKey = try key.publicKey(algorithm: algorithm, includingCurve: true)
            #expect(try publicKey.isValidSignature(signature, of: message, holder: "test"))
            #expect(!"\(key)".contains("0x"))
        }
    }
}

@Suite struct CVCRequestTests {
    @Test func requestsRoundTripAndVerify() throws {
        let curve = try #require(StandardizedDomainParameters(id: 13)?.curve)
        let pki = try TestPKI(algorithm: .ecdsa(.sha256), curve: curve)
        let newKey = try CVCPrivateKey.generateECDSA(on: curve)
        let plain = try CVCRequest.make(
            authorityReference: "UTDV000001", key: newKey, algorithm: .ecdsa(.sha256), holderReference: "UTIS000002")
        #expect(try CVCRequest(encoded: plain.encoded) == plain)
        #expect(try plain.hasValidInnerSignature())
        #expect(plain.publicKey.curveParameters != nil)
        let authenticated = try CVCRequest.make(
            authorityReference: "UTDV000001", key: newKey, algorithm: .ecdsa(.sha256), holderReference: "UTIS000002",
            authenticatedBy: ("UTIS000001", pki.terminalKey, .ecdsa(.sha256)))
        let parsed = try CVCRequest(encoded: authenticated.encoded)
        #expect(parsed.outerAuthorityReference == "UTIS000001")
        let chain = try CVCChain(trustPoint: pki.cvca, certificates: [pki.dv, pki.terminal])
        #expect(try parsed.hasValidOuterSignature(with: chain.terminalKey))
        #expect(
            try !parsed.hasValidOuterSignature(
                with: try pki.dvKey.publicKey(algorithm: .ecdsa(.sha256), includingCurve: true)))
    }
}
