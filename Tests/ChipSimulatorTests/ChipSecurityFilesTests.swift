import ASN1
import Arithmetic
import CryptoPrimitives
import Foundation
import ICAO
import LDS
import SecureMessaging
import TestSupport
import Testing
import Transport

@testable import ChipSimulator

/// DG14, DG15 and EF.CardSecurity written for the chip's keys (read back with the LDS parsers and
/// OpenSSL), and the faults of a chip that is not genuine: a clone, wrong CAM data, a forged
/// EF.CardSecurity.
@Suite struct ChipSecurityFilesTests {
    static let specimen = Result { try Specimen.generate() }

    @Test func specimenFilesDescribeItsKeys() throws {
        let specimen = try Self.specimen.get()
        let credentials = specimen.credentials
        let key = try #require(credentials.chipAuthenticationKeys.first)
        #expect(credentials.chipAuthenticationKeys.count == 1 && key.keyPair.parametersName == "brainpoolP256r1")
        #expect(credentials.paceOffers.map(\.description) == ["id-PACE-ECDH-CAM-AES-CBC-CMAC-128 on brainpoolP256r1"])
        let dataGroup14 = try SecurityOptions(try #require(specimen.files[dataGroup: 14]), kind: .dg14)
        #expect(
            dataGroup14.chipAuthenticationInfos.map(\.protocolIdentifier) == [key.chipAuthenticationProtocol.identifier]
        )
        #expect(dataGroup14.chipAuthenticationInfos.first?.keyId == nil)
        let publicKeyInfo = try #require(dataGroup14.chipAuthenticationPublicKeyInfos.first)
        #expect(publicKeyInfo.publicKey.publicKey == key.keyPair.publicKey)
        #expect(publicKeyInfo.publicKey.standardizedDomainParameterId == 13)
        #expect(dataGroup14.securityInfos.count == 2)
        // DG15: the RSA-2048 key, the explicit SHA-256 trailer.
        guard case .rsa(let rsa, let trailer) = try #require(credentials.activeAuthenticationKey).algorithm else {
            Issue.record("the specimen's AA key is RSA")
            return
        }
        #expect(rsa.modulusBits == 2048 && trailer == .explicit(.sha256))
        let dataGroup15 = try ASN1Node.parse(try #require(specimen.files[dataGroup: 15]))
        #expect(dataGroup15.tag == .application(15, constructed: true))
        let publicKey = try PublicKeyInfo(try #require(dataGroup15.children.first).encodedBytes)
        #expect(publicKey.keyAlgorithm == .rsa && publicKey.keySize == 2048)
        // EF.CardSecurity: the CAM PACEInfo and the CAM key, signed by the document signer.
        let cardSecurity = try CardSecurity(try #require(specimen.files.cardSecurity))
        #expect(cardSecurity.eContentType == "0.4.0.127.0.7.3.2.1")
        #expect(cardSecurity.securityInfos.paceInfos.map(\.parameterId) == [13])
        #expect(
            cardSecurity.securityInfos.chipAuthenticationPublicKeyInfos.map(\.publicKey.publicKey) == [
                key.keyPair.publicKey
            ])
        #expect(try Self.verifiesWithOpenSSL(try #require(specimen.files.cardSecurity), specimen) != false)
        // DG14 and DG15 are hashed into EF.SOD.
        let sod = try #require(specimen.files.sod)
        for number in [14, 15] {
            let digest = HashAlgorithm.sha256.hash(try #require(specimen.files[dataGroup: number]))
            #expect(sod.firstRange(of: digest) != nil, "DG\(number)")
        }
    }

    /// Several keys with key IDs, no ChipAuthenticationInfo, explicit parameters, an ECDSA key.
    @Test func layoutOptions() throws {
        let ecdh = ChipAuthenticationKey(try KeyAgreementKeyPair.generate(on: .brainpoolP256r1), keyIdentifier: 1)
        let dh = ChipAuthenticationKey(
            try KeyAgreementKeyPair.generate(on: .modp2048Subgroup224), keyIdentifier: 2, cipher: .tripleDES)
        let ecdsa = try ActiveAuthenticationKey.ecdsa(try KeyAgreementKeyPair.generate(on: .secp384r1), hash: .sha384)
        let credentials = Credentials(activeAuthenticationKey: ecdsa, chipAuthenticationKeys: [ecdh, dh])
        for explicit in [false, true] {
            let specimen = try Specimen.generate(
                credentials: credentials,
                layout: SecurityInfoLayout(chipAuthenticationInfo: explicit, explicitDomainParameters: explicit))
            let dataGroup14 = try SecurityOptions(try #require(specimen.files[dataGroup: 14]), kind: .dg14)
            #expect(
                dataGroup14.chipAuthenticationInfos.map(\.keyId) == (explicit ? [1, 2] : []).map { Optional($0) }
                    || dataGroup14.chipAuthenticationInfos.map(\.keyId)
                        == (explicit ? [2, 1] : []).map { Optional($0) }
            )
            let keys = dataGroup14.chipAuthenticationPublicKeyInfos.sorted { ($0.keyId ?? 0) < ($1.keyId ?? 0) }
            #expect(keys.map(\.keyId) == [1, 2])
            #expect(
                keys.map(\.publicKey.parameterEncoding)
                    == (explicit ? [.explicit, .explicit] : [.standardized, .standardized]))
            #expect(keys[0].publicKey.publicKey == ecdh.keyPair.publicKey)
            #expect(keys[0].publicKey.curve == "brainpoolP256r1")
            #expect(
                BigInt(bytes: try ASN1Node.parse(keys[1].publicKey.publicKey).content)
                    == BigInt(bytes: dh.keyPair.publicKey))
            if explicit { #expect(keys[1].publicKey.dhParameters?.order != nil) }
            let activeAuthentication = dataGroup14.securityInfos.compactMap { info -> ActiveAuthenticationInfo? in
                if case .activeAuthentication(let aa) = info { return aa }
                return nil
            }
            #expect(activeAuthentication.map(\.signatureAlgorithm) == ["0.4.0.127.0.7.1.1.4.1.4"])
            let dataGroup15 = try ASN1Node.parse(try #require(specimen.files[dataGroup: 15]))
            let publicKey = try PublicKeyInfo(try #require(dataGroup15.children.first).encodedBytes)
            #expect(publicKey.keyAlgorithm == .ec && publicKey.curve == "secp384r1")
            #expect(publicKey.parameterEncoding == (explicit ? .explicit : .named))
            #expect(specimen.files.cardSecurity == nil)
        }
    }

    /// A CAM offer without a key gets one, which EF.CardSecurity and DG14 hold.
    @Test func camOfferGetsItsKey() throws {
        let offer = try PACEOffer(named: "ECDH-CAM-AES-256:17")
        let specimen = try Specimen.generate(credentials: Credentials(paceOffers: [offer]))
        let key = try #require(specimen.credentials.chipAuthenticationKeys.first)
        #expect(key.keyPair.domainParameters == StandardizedDomainParameters.brainpoolP512r1.domainParameters)
        let cardSecurity = try CardSecurity(try #require(specimen.files.cardSecurity))
        #expect(
            cardSecurity.securityInfos.chipAuthenticationPublicKeyInfos.map(\.publicKey.publicKey) == [
                key.keyPair.publicKey
            ])
        #expect(cardSecurity.securityInfos.paceInfos.map(\.parameterId) == [17])
        let dataGroup14 = try SecurityOptions(try #require(specimen.files[dataGroup: 14]), kind: .dg14)
        #expect(dataGroup14.chipAuthenticationPublicKeyInfos.map(\.publicKey.publicKey) == [key.keyPair.publicKey])
    }

    /// The specimen's chip proves itself: CAM binds EF.CardSecurity's key, Chip Authentication
    /// with DG14's key re-keys the session, Active Authentication verifies with DG15's key.
    @Test func genuineChipProvesItsKeys() throws {
        let specimen = try Self.specimen.get()
        let outcome = try Self.run(specimen, faults: [])
        #expect(outcome.camBinds)
        #expect(outcome.chipAuthenticates)
        #expect(outcome.activeAuthenticates)
    }

    @Test func cloneFailsEveryProof() throws {
        let outcome = try Self.run(try Self.specimen.get(), faults: [.clonedKeys])
        #expect(!outcome.camBinds && !outcome.chipAuthenticates && !outcome.activeAuthenticates)
    }

    @Test func wrongCAMData() throws {
        let outcome = try Self.run(try Self.specimen.get(), faults: [.pace(.wrongChipAuthenticationData)])
        #expect(!outcome.camBinds && outcome.chipAuthenticates && outcome.activeAuthenticates)
    }

    /// EF.CardSecurity is read in plain before access; forged, its signature no longer verifies.
    @Test func forgedCardSecurity() throws {
        let specimen = try Self.specimen.get()
        for forged in [false, true] {
            let chip = SimulatedChip(
                configuration: ChipConfiguration(
                    files: specimen.files, credentials: specimen.credentials,
                    faults: forged ? [.forgedCardSecurity] : []))
            #expect(
                try chip.transmit(CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01, 0x1D])).statusWord == .success
            )
            let read = try chip.transmit(CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 65536))
            #expect(read.statusWord == .success)
            #expect((read.data == specimen.files.cardSecurity) == !forged)
            #expect(read.data.count == specimen.files.cardSecurity?.count)
            if let verified = try Self.verifiesWithOpenSSL(read.data, specimen) { #expect(verified == !forged) }
        }
    }

    struct Proofs {
        var camBinds = false
        var chipAuthenticates = false
        var activeAuthenticates = false
    }

    /// The three proofs as a terminal runs them with the keys of the specimen's files.
    static func run(_ specimen: Specimen, faults: [ChipFault]) throws -> Proofs {
        var proofs = Proofs()
        let configuration = ChipConfiguration(files: specimen.files, credentials: specimen.credentials, faults: faults)
        var (terminal, pace) = try ProtectedTerminal.open(configuration)
        let curve = try #require(StandardizedDomainParameters.brainpoolP256r1.curve)
        // CAM: PK_Map,IC = CA_IC · PK_IC with PK_IC from EF.CardSecurity.
        let cardSecurity = try CardSecurity(try #require(specimen.files.cardSecurity))
        let staticKey = try #require(cardSecurity.securityInfos.chipAuthenticationPublicKeyInfos.first).publicKey
            .publicKey
        let data = try #require(pace.chipAuthenticationData)
        proofs.camBinds =
            (try curve.encode(curve.multiply(try curve.decodePoint(staticKey), by: BigInt(bytes: data))))
            == pace.chipMappingKey
        // Active Authentication with DG15's key (before Chip Authentication, under PACE's keys).
        let dataGroup15 = try ASN1Node.parse(try #require(specimen.files[dataGroup: 15]))
        let publicKey = try RSAPublicKey(
            subjectPublicKeyInfo: Array(try #require(dataGroup15.children.first).encodedBytes))
        let challenge = hex("1122334455667788")
        let signature = try terminal.send(ActiveAuthenticationTests.internalAuthenticate(challenge))
        // A clone's signature, made with another modulus, may not even be below DG15's: not verified.
        proofs.activeAuthenticates =
            (try? publicKey.rawPublicOperation(signature.data)).map {
                ActiveAuthenticationTests.verifies($0, challenge: challenge, trailer: .explicit(.sha256))
            } ?? false
        // Chip Authentication with DG14's key.
        let dataGroup14 = try SecurityOptions(try #require(specimen.files[dataGroup: 14]), kind: .dg14)
        let chipKey = try #require(dataGroup14.chipAuthenticationPublicKeyInfos.first).publicKey.publicKey
        let pair = try curve.generateKeyPair()
        let secret = try curve.sharedSecret(privateKey: pair.privateKey, peerPublicKey: try curve.decodePoint(chipKey))
        let protocolIdentifier = ChipAuthenticationProtocol(keyAgreement: .ecdh, cipher: .aes128)
        #expect(try terminal.send(ChipAuthenticationTests.setAT(protocolIdentifier)).statusWord == .success)
        #expect(
            try terminal.send(ChipAuthenticationTests.generalAuthenticate(try curve.encode(pair.publicKey))).statusWord
                == .success)
        terminal.session = try ProtectedTerminal.sessionKeys(secret, cipher: .aes128)
        proofs.chipAuthenticates = (try? terminal.readsCOM()) ?? false
        return proofs
    }

    /// `openssl cms -verify` of EF.CardSecurity against the specimen's CSCA; nil without openssl.
    static func verifiesWithOpenSSL(_ cardSecurity: [UInt8], _ specimen: Specimen) throws -> Bool? {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cardsecurity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let paths = ["cs.der", "csca.pem"].map { directory.appendingPathComponent($0).path }
        try Data(cardSecurity).write(to: URL(fileURLWithPath: paths[0]))
        try Data(specimen.countrySigningCertificatePEM.utf8).write(to: URL(fileURLWithPath: paths[1]))
        guard
            let result = try SpecimenTests.openssl([
                "cms", "-verify", "-inform", "DER", "-in", paths[0], "-CAfile", paths[1], "-purpose", "any", "-out",
                "/dev/null",
            ])
        else { return nil }
        return result.status == 0
    }
}
