import AccessControl
import CVCertificates
import ChipAuthentication
import ChipSimulator
import Foundation
import ICAO
import LDS
import MRZ
import SecureMessaging
import Testing
import Transport

/// The reader's Terminal Authentication v1 (ChipAuthentication) against the simulator's chip side,
/// written apart: BAC, Chip Authentication from DG14, then the test PKI's chain from EF.CVCA's trust
/// point, the challenge signed, DG3/DG4 opened by the terminal's CHAT; and each refusal typed.
@Suite struct TerminalAuthenticationTests {
    /// A CVCA, a DV and an inspection system, every key of one algorithm.
    struct PKI {
        let cvca, dv, terminal: CVCertificate
        let terminalKey: CVCPrivateKey
        let algorithm: TerminalAuthenticationAlgorithm

        init(
            _ algorithm: TerminalAuthenticationAlgorithm, curve: Int = 13,
            rights: CertificateHolderAuthorization.InspectionRights = [.readDG3, .readDG4],
            terminalUntil: CVCDate = CVCDate(year: 2027, month: 12, day: 31)!, prefix: String = "UT"
        ) throws {
            func key() throws -> CVCPrivateKey {
                if algorithm.isECDSA {
                    return try CVCPrivateKey.generateECDSA(
                        on: try #require(StandardizedDomainParameters(id: curve)?.curve))
                }
                return try CVCPrivateKey.generateRSA(bits: 1536)
            }
            let (cvcaKey, dvKey) = (try key(), try key())
            terminalKey = try key()
            self.algorithm = algorithm
            let from = CVCDate(year: 2026, month: 1, day: 1)!
            let until = CVCDate(year: 2027, month: 12, day: 31)!
            cvca = try CVCertificate.issue(
                authorityReference: prefix + "CVCA00001",
                publicKey: cvcaKey.publicKey(algorithm: algorithm, includingCurve: true),
                holderReference: prefix + "CVCA00001",
                authorization: .init(inspectionSystem: .cvca, rights: [.readDG3, .readDG4]),
                effectiveDate: from, expirationDate: until, signer: cvcaKey, signingAlgorithm: algorithm)
            dv = try CVCertificate.issue(
                authorityReference: prefix + "CVCA00001",
                publicKey: dvKey.publicKey(algorithm: algorithm, includingCurve: false),
                holderReference: prefix + "DV00001",
                authorization: .init(inspectionSystem: .domesticDocumentVerifier, rights: [.readDG3, .readDG4]),
                effectiveDate: from, expirationDate: until, signer: cvcaKey, signingAlgorithm: algorithm)
            terminal = try CVCertificate.issue(
                authorityReference: prefix + "DV00001",
                publicKey: terminalKey.publicKey(algorithm: algorithm, includingCurve: false),
                holderReference: prefix + "IS00001", authorization: .init(inspectionSystem: .terminal, rights: rights),
                effectiveDate: from, expirationDate: terminalUntil, signer: dvKey, signingAlgorithm: algorithm)
        }
    }

    /// A chip trusting `pki`'s CVCA on 2026-06-01, opened with BAC and Chip Authentication.
    struct Session {
        let channel: SecureChannel
        let chipAuthentication: ChipAuthenticationV1.Outcome
        let specimen: Specimen
        let access: EstablishedAccess

        /// With `paceOffer` the chip offers that PACE and the session is opened by it, else by BAC.
        init(trusting pki: PKI, chipAuthentication name: String = "ECDH-AES-128:13", paceOffer: String? = nil) throws {
            let credentials = Credentials(
                paceOffers: try paceOffer.map { [try PACEOffer(named: $0)] } ?? [],
                chipAuthenticationKeys: [try ChipAuthenticationKey.generate(named: name)])
            specimen = try Specimen.generate(rich: true, credentials: credentials)
            var files = specimen.files
            files[dataGroup: 3] = EncodedIdentificationFeatures.encodedFinger(
                image: Self.fingerImage, width: 400, height: 500, position: 2)
            files[dataGroup: 4] = EncodedIdentificationFeatures.encodedIris(
                image: Self.irisImage, width: 640, height: 480, eye: 1)
            let chip = SimulatedChip(
                configuration: ChipConfiguration(
                    files: files, credentials: specimen.credentials,
                    terminalAuthentication: TerminalAuthenticationSetup(
                        trustPoint: pki.cvca, currentDate: CVCDate(year: 2026, month: 6, day: 1)!)))
            let opened = try ChipAccess.open(
                chip,
                accessKey: try AccessPassword.mrz(
                    documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623"))
            channel = try #require(opened.secureChannel)
            access = opened.access
            let dg14 = try SecurityOptions(try #require(specimen.files[dataGroup: 14]), kind: .dg14)
            let offer = try #require(ChipAuthenticationOffer.offers(in: dg14).offers.first)
            chipAuthentication = try ChipAuthenticationV1.run(offer, over: channel)
        }

        /// Stand-ins for a WSQ fingerprint and a JPEG iris: kept as they are, whatever their content.
        static let fingerImage: [UInt8] = [0xFF, 0xA0, 0xFF, 0xA8] + [UInt8](repeating: 0x5A, count: 300)
        static let irisImage: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0x33, count: 200) + [0xFF, 0xD9]

        /// The whole file, 200 bytes a READ BINARY.
        func readWhole(_ identifier: UInt16) throws -> [UInt8] {
            let select = try channel.send(
                CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [UInt8(identifier >> 8), UInt8(identifier & 0xFF)]))
            #expect(select.statusWord.isSuccess)
            var contents: [UInt8] = []
            while true {
                let answer = try channel.send(
                    CommandAPDU(
                        ins: 0xB0, p1: UInt8(contents.count >> 8), p2: UInt8(contents.count & 0xFF), expectedLength: 200
                    ))
                guard answer.statusWord.isSuccess else { break }
                contents += answer.data
                if answer.data.count < 200 { break }
            }
            return contents
        }

        /// SELECT by FID and one READ BINARY: the data, or the status word that refused it.
        func read(_ identifier: UInt16) throws -> (StatusWord, [UInt8]) {
            let select = try channel.send(
                CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [UInt8(identifier >> 8), UInt8(identifier & 0xFF)]))
            guard select.statusWord.isSuccess else { return (select.statusWord, []) }
            let answer = try channel.send(CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 64))
            return (answer.statusWord, answer.data)
        }

        func authenticate(
            _ pki: PKI, certificates: [CVCertificate]? = nil, signer: TerminalAuthenticationV1.Signer? = nil,
            chipIdentifier: [UInt8] = Array("L898902C<3".utf8)
        )
            throws -> CVCertificate
        {
            let (status, cvca) = try read(ChipFiles.cvcaIdentifier)
            #expect(status.isSuccess)
            let trustPoints = try TerminalAuthenticationV1.trustPoints(cvcaFile: cvca)
            #expect(trustPoints == ["UTCVCA00001"])
            let path =
                try certificates
                ?? TerminalAuthenticationV1.path(from: [pki.terminal, pki.cvca, pki.dv], trustPoints: trustPoints)
            return try TerminalAuthenticationV1.run(
                certificates: path, documentIdentifier: chipIdentifier, chipAuthentication: chipAuthentication,
                signer: signer ?? TerminalAuthenticationV1.signer(key: pki.terminalKey, algorithm: pki.algorithm),
                over: channel)
        }
    }

    static let dg3 = ChipFiles.dataGroupIdentifier(3)
    static let dg4 = ChipFiles.dataGroupIdentifier(4)

    static let algorithms: [(TerminalAuthenticationAlgorithm, Int)] = [
        (.ecdsa(.sha1), 8), (.ecdsa(.sha224), 11), (.ecdsa(.sha256), 12), (.ecdsa(.sha256), 13), (.ecdsa(.sha384), 15),
        (.ecdsa(.sha384), 16), (.ecdsa(.sha512), 17), (.ecdsa(.sha512), 18), (.rsaPKCS1(.sha256), 0),
        (.rsaPSS(.sha256), 0),
        (.rsaPSS(.sha512), 0),
    ]

    /// ID_PICC, the chip's identifier the terminal signs with the challenge (9303-11 §7.1.2,
    /// TR-03110-3 B.11.1), written here from the standard apart from the reader's and the
    /// simulator's code: after BAC the document number and its check digit as the MRZ prints them;
    /// after PACE Comp(PK_PICC), the x coordinate of the chip's ephemeral point of PACE's key
    /// agreement (P-256 here: 32 bytes of 04‖x‖y). The other identifier is refused (6300), and
    /// DG3 stays closed until the right one is signed.
    @Test(arguments: [nil, "ECDH-GM-AES-128:12", "ECDH-IM-AES-256:12"])
    func theSignedChipIdentifierFollowsTheAccessProtocol(paceOffer: String?) throws {
        let pki = try PKI(.ecdsa(.sha256))
        let session = try Session(trusting: pki, paceOffer: paceOffer)
        let documentNumber = Array("L898902C<3".utf8)
        let right: [UInt8]
        let wrong: [UInt8]
        if paceOffer != nil {
            let chipKey = try #require(session.access.paceResult?.chipEphemeralPublicKey)
            #expect(chipKey.count == 65 && chipKey.first == 0x04)
            (right, wrong) = (Array(chipKey[1...32]), documentNumber)
        } else {
            #expect(session.access.paceResult == nil)
            (right, wrong) = (documentNumber, [UInt8](repeating: 0x42, count: 32))
        }
        #expect {
            try session.authenticate(pki, chipIdentifier: wrong)
        } throws: { ($0 as? ChipAuthenticationError)?.statusWord == .verificationFailed }
        #expect(try session.read(Self.dg3).0 == .securityStatusNotSatisfied)
        #expect(try session.authenticate(pki, chipIdentifier: right).holderReference == "UTIS00001")
        let (status, data) = try session.read(Self.dg3)
        #expect(status.isSuccess && data.first == 0x63, "DG3: \(status)")
    }

    @Test(arguments: algorithms)
    func terminalAuthenticationOpensDG3AndDG4(algorithm: TerminalAuthenticationAlgorithm, curve: Int) throws {
        let pki = try PKI(algorithm, curve: curve)
        let session = try Session(trusting: pki)
        #expect(try session.read(Self.dg3).0 == .securityStatusNotSatisfied)
        let terminal = try session.authenticate(pki)
        #expect(terminal.holderReference == "UTIS00001")
        let (status, data) = try session.read(Self.dg3)
        #expect(status.isSuccess && data.first == 0x63, "DG3: \(status)")
        #expect(try session.read(Self.dg4).0 != .securityStatusNotSatisfied)
    }

    /// DG3 and DG4 read after Terminal Authentication and parsed: a 19794-4 finger and a 19794-6
    /// iris, images kept as they are.
    @Test func fingerprintsAndIrisesAreReadAndParsed() throws {
        let pki = try PKI(.ecdsa(.sha256))
        let session = try Session(trusting: pki)
        _ = try session.authenticate(pki)
        let fingers = try EncodedIdentificationFeatures(try session.readWhole(Self.dg3), kind: .dg3)
        let finger = try #require(fingers.records.first?.dataBlock)
        #expect(finger.standard == .iso19794Finger && finger.warnings.isEmpty, "\(finger.warnings)")
        #expect(finger.images.first?.position == 2 && finger.images.first?.quality == 80)
        #expect(finger.images.first?.image.bytes == Data(Session.fingerImage))
        #expect(finger.images.first?.image.format == .wsq)
        let irises = try EncodedIdentificationFeatures(try session.readWhole(Self.dg4), kind: .dg4)
        let iris = try #require(irises.records.first?.dataBlock)
        #expect(iris.standard == .iso19794Iris && iris.warnings.isEmpty, "\(iris.warnings)")
        #expect(iris.images.first?.position == 1 && iris.images.first?.image.bytes == Data(Session.irisImage))
        #expect(iris.images.first?.image.format == .jpeg)
        // The typed records: the finger's position and general header, the iris's eye and header.
        let fingerInfo = try #require(finger.images.first?.finger)
        #expect(fingerInfo.position == .rightIndexFinger && fingerInfo.width == 400 && fingerInfo.height == 500)
        #expect(fingerInfo.recordHeader?.compression == .wsq && fingerInfo.recordHeader?.fingerCount == 1)
        let irisInfo = try #require(iris.images.first?.iris)
        #expect(irisInfo.eye == .right && irisInfo.recordHeader?.imageFormat == .monochromeJPEG)
        #expect(irisInfo.recordHeader?.rawWidth == 640 && irisInfo.recordHeader?.rawHeight == 480)
    }

    @Test func afterDHChipAuthentication() throws {
        let pki = try PKI(.ecdsa(.sha256))
        let session = try Session(trusting: pki, chipAuthentication: "DH-3DES:0")
        _ = try session.authenticate(pki)
        #expect(try session.read(Self.dg3).0.isSuccess)
    }

    @Test func rightsComeFromTheCHAT() throws {
        let pki = try PKI(.ecdsa(.sha256), rights: [.readDG4])
        let session = try Session(trusting: pki)
        _ = try session.authenticate(pki)
        #expect(try session.read(Self.dg3).0 == .securityStatusNotSatisfied)
        let none = try PKI(.ecdsa(.sha256), rights: [])
        let other = try Session(trusting: none)
        _ = try other.authenticate(none)
        #expect(try other.read(Self.dg3).0 == .securityStatusNotSatisfied)
    }

    func failure(_ body: () throws -> Void) -> ChipAuthenticationError? {
        do { try body() } catch let error as ChipAuthenticationError { return error } catch {
            Issue.record("not a ChipAuthenticationError: \(error)")
        }
        return nil
    }

    @Test func anExpiredTerminalIsRefused() throws {
        let pki = try PKI(.ecdsa(.sha256), terminalUntil: CVCDate(year: 2026, month: 3, day: 31)!)
        let session = try Session(trusting: pki)
        let error = failure { _ = try session.authenticate(pki) }
        #expect(
            error?.code == .refused && error?.reason.contains("UTIS00001") == true
                && error?.statusWord == .incorrectData)
        #expect(try session.read(Self.dg3).0 == .securityStatusNotSatisfied)
    }

    @Test func aWrongSignatureIsRefused() throws {
        let pki = try PKI(.ecdsa(.sha256))
        let session = try Session(trusting: pki)
        let honest = TerminalAuthenticationV1.signer(key: pki.terminalKey, algorithm: pki.algorithm)
        let error = failure {
            _ = try session.authenticate(pki) { data in
                var signature = try honest(data)
                signature[0] ^= 1
                return signature
            }
        }
        #expect(error?.code == .verificationFailed && error?.statusWord == .verificationFailed)
        #expect(try session.read(Self.dg3).0 == .securityStatusNotSatisfied)
    }

    @Test func aDVOutsideTheTrustPointIsRefused() throws {
        let pki = try PKI(.ecdsa(.sha256))
        let foreign = try PKI(.ecdsa(.sha256), prefix: "XX")
        let session = try Session(trusting: pki)
        #expect(
            failure {
                _ = try TerminalAuthenticationV1.path(
                    from: [foreign.dv, foreign.terminal], trustPoints: ["UTCVCA00001"])
            }?.code == .unusableKey)
        let error = failure { _ = try session.authenticate(foreign, certificates: [foreign.dv, foreign.terminal]) }
        #expect(
            error?.code == .refused && error?.reason.contains("XXDV00001") == true
                && error?.statusWord == .referencedDataNotFound)
        // A DV whose CAR is the trust point's but that another CVCA signed.
        let forged = try CVCertificate.issue(
            authorityReference: "UTCVCA00001", publicKey: foreign.dv.publicKey, holderReference: "XXDV00002",
            authorization: foreign.dv.authorization, effectiveDate: foreign.dv.effectiveDate,
            expirationDate: foreign.dv.expirationDate, signer: foreign.terminalKey, signingAlgorithm: .ecdsa(.sha256))
        let other = try Session(trusting: pki)
        let forgedError = failure { _ = try other.authenticate(pki, certificates: [forged, pki.terminal]) }
        #expect(forgedError?.code == .refused && forgedError?.statusWord == .verificationFailed)
    }
}
