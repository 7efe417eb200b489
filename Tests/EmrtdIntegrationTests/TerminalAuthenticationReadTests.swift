import CVCertificates
import ChipAuthentication
import ChipSimulator
import Emrtd
import Foundation
import JSON
import LDS
import MRZ
import Synchronization
import Testing

/// The whole read with Terminal Authentication (`ReaderConfig.terminal`) against the simulator:
/// after Chip Authentication the read presents the test PKI's chain from EF.CVCA's trust point,
/// signs the challenge, and reads and parses DG3 and DG4; each refusal leaves the document read,
/// DG3/DG4 denied and `authenticationStatus.terminal` saying why.
@Suite struct TerminalAuthenticationReadTests {
    typealias PKI = TerminalAuthenticationTests.PKI

    static func mrz() throws -> AccessKey {
        .mrz(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")
    }

    /// A specimen with a fingerprint in DG3 and an iris in DG4, both listed and signed, on a chip
    /// (BAC and Chip Authentication unless `credentials` say otherwise) trusting `pki`'s CVCA on
    /// 2026-06-01.
    struct Chip {
        let chip: SimulatedChip
        let specimen: Specimen

        init(trusting pki: PKI, credentials: Credentials? = nil) throws {
            let chosen =
                try credentials
                ?? Credentials(chipAuthenticationKeys: [try ChipAuthenticationKey.generate(named: "ECDH-AES-128:13")])
            var files = try Specimen.generate(credentials: chosen).files
            files[dataGroup: 3] = EncodedIdentificationFeatures.encodedFinger(
                image: TerminalAuthenticationTests.Session.fingerImage, width: 400, height: 500, position: 2)
            files[dataGroup: 4] = EncodedIdentificationFeatures.encodedIris(
                image: TerminalAuthenticationTests.Session.irisImage, width: 640, height: 480, eye: 1)
            files.com = CommonFile.encoded(
                ldsVersion: "0108", unicodeVersion: "040000", dataGroups: [.dg1, .dg2, .dg3, .dg4, .dg11, .dg12, .dg14])
            specimen = try Specimen.signing(files, credentials: chosen)
            chip = SimulatedChip(
                configuration: ChipConfiguration(
                    files: specimen.files, credentials: specimen.credentials,
                    terminalAuthentication: TerminalAuthenticationSetup(
                        trustPoint: pki.cvca, currentDate: CVCDate(year: 2026, month: 6, day: 1)!)))
        }

        func read(_ terminal: TerminalConfiguration?, accessKey: AccessKey? = nil) throws -> TravelDocument {
            let reader = try EmrtdReader(
                config: ReaderConfig(
                    useBuiltInAuthorityCertificates: false,
                    authorityCertificates: [Data(specimen.countrySigningCertificate)],
                    renderImages: false, terminal: terminal))
            return try reader.read(transport: chip, accessKey: try accessKey ?? TerminalAuthenticationReadTests.mrz())
        }
    }

    /// The PKI's certificates, out of order, and the IS key as a PKCS#8 file gives it.
    static func terminal(_ pki: PKI, certificates: [CVCertificate]? = nil) throws -> TerminalConfiguration {
        try TerminalConfiguration(
            certificates: (certificates ?? [pki.terminal, pki.cvca, pki.dv]).map(\.encoded),
            privateKey: try pki.terminalKey.pkcs8())
    }

    static let algorithms: [(TerminalAuthenticationAlgorithm, Int)] =
        [
            (.ecdsa(.sha1), 8), (.ecdsa(.sha224), 9), (.ecdsa(.sha224), 10), (.ecdsa(.sha224), 11),
            (.ecdsa(.sha256), 12), (.ecdsa(.sha256), 13), (.ecdsa(.sha256), 14), (.ecdsa(.sha384), 15),
            (.ecdsa(.sha384), 16), (.ecdsa(.sha512), 17), (.ecdsa(.sha512), 18),
        ] + [(.rsaPKCS1(.sha256), 0), (.rsaPSS(.sha256), 0), (.rsaPKCS1(.sha1), 0), (.rsaPSS(.sha512), 0)]

    @Test(arguments: algorithms)
    func readsFingerprintsAndIrises(algorithm: TerminalAuthenticationAlgorithm, curve: Int) throws {
        let pki = try PKI(algorithm, curve: curve)
        let document = try Chip(trusting: pki).read(try Self.terminal(pki))
        let terminal = document.authenticationStatus.terminal
        #expect(terminal.status == .succeeded, "\(algorithm) on \(curve): \(terminal.reason)")
        #expect(terminal.certificates == ["UTDV00001", "UTIS00001"] && terminal.statusWord == nil)
        #expect(document.deniedFiles.isEmpty, "\(document.deniedFiles)")
        #expect(document.authenticationStatus.data.status == .authenticated)
        #expect(
            document.authenticationStatus.data.dataGroupHashes.filter { [3, 4].contains($0.dataGroupNumber) }
                .allSatisfy { $0.status == .valid })
        let finger = try #require(document.encodedIdentificationFeaturesFinger?.records.first?.dataBlock)
        #expect(finger.standard == .iso19794Finger && finger.images.first?.position == 2)
        #expect(finger.images.first?.image.bytes == Data(TerminalAuthenticationTests.Session.fingerImage))
        let iris = try #require(document.encodedIdentificationFeaturesIris?.records.first?.dataBlock)
        #expect(
            iris.standard == .iso19794Iris
                && iris.images.first?.image.bytes == Data(TerminalAuthenticationTests.Session.irisImage))
    }

    /// The key stays outside: the read hands the signer the bytes to sign, once.
    @Test func aSignerCallbackSigns() throws {
        let pki = try PKI(.ecdsa(.sha256))
        let calls = Mutex(0)
        let key = pki.terminalKey
        let terminal = try TerminalConfiguration(certificates: [pki.dv, pki.terminal, pki.cvca].map(\.encoded)) {
            data in
            calls.withLock { $0 += 1 }
            // ID_PICC (document number and check digit), r_PICC (8 bytes), Comp(PK_PCD) (x of P-256's point).
            #expect(data.count == 10 + 8 + 32 && Array(data.prefix(10)) == Array("L898902C<3".utf8))
            return try key.sign(data, algorithm: .ecdsa(.sha256))
        }
        let document = try Chip(trusting: pki).read(terminal)
        #expect(document.authenticationStatus.terminal.status == .succeeded)
        #expect(calls.withLock { $0 } == 1)
        #expect(document.encodedIdentificationFeaturesFinger != nil && document.deniedFiles.isEmpty)
    }

    /// PACE (with the MRZ) then Chip Authentication; and after PACE-CAM, which proves the chip by
    /// itself, Chip Authentication still runs when a terminal is configured.
    @Test(arguments: ["ECDH-GM-AES-128:13", "ECDH-CAM-AES-128:13"])
    func afterPACE(_ offer: String) throws {
        let pki = try PKI(.ecdsa(.sha256))
        let credentials = Credentials(
            paceOffers: [try PACEOffer(named: offer)],
            chipAuthenticationKeys: [try ChipAuthenticationKey.generate(named: "ECDH-AES-128:13")])
        let chip = try Chip(trusting: pki, credentials: credentials)
        let document = try chip.read(try Self.terminal(pki))
        #expect(document.accessControlProtocolUsed == .pace)
        #expect(
            document.authenticationStatus.terminal.status == .succeeded, "\(document.authenticationStatus.terminal)")
        #expect(document.encodedIdentificationFeaturesIris != nil && document.deniedFiles.isEmpty)
        #expect(document.authenticationStatus.chip.status == .authenticated)
        let plain = try chip.read(nil)
        #expect(plain.authenticationStatus.terminal.status == .notConfigured)
        #expect(plain.deniedFiles == [.dg3, .dg4] && plain.encodedIdentificationFeaturesFinger == nil)
    }

    /// Without Chip Authentication there is no key to bind to: not run, and why.
    @Test func withoutChipAuthenticationItIsNotRun() throws {
        let pki = try PKI(.ecdsa(.sha256))
        let document = try Chip(trusting: pki, credentials: Credentials()).read(try Self.terminal(pki))
        let terminal = document.authenticationStatus.terminal
        #expect(terminal.status == .notRun && terminal.reason.contains("Chip Authentication"), "\(terminal.reason)")
        #expect(document.deniedFiles == [.dg3, .dg4])
    }

    /// A refused step: the document still reads, DG3/DG4 are denied, the status and a warning
    /// name the certificate (its CHR) and the status word.
    func refused(_ document: TravelDocument, _ status: TerminalAuthenticationStatus.Status, naming name: String)
        -> TerminalAuthenticationStatus
    {
        let terminal = document.authenticationStatus.terminal
        #expect(terminal.status == status && terminal.reason.contains(name), "\(terminal)")
        #expect(document.deniedFiles == [.dg3, .dg4], "\(document.deniedFiles)")
        #expect(document.encodedIdentificationFeaturesFinger == nil)
        #expect(document.authenticationStatus.data.status == .authenticated)
        #expect(document.warnings.contains { $0.hasPrefix("Terminal Authentication") && $0.contains(name) })
        return terminal
    }

    @Test func anExpiredTerminal() throws {
        let pki = try PKI(.ecdsa(.sha256), terminalUntil: CVCDate(year: 2026, month: 3, day: 31)!)
        let document = try Chip(trusting: pki).read(try Self.terminal(pki))
        let terminal = refused(document, .failed, naming: "UTIS00001")
        #expect(terminal.statusWord == "6A80" && terminal.certificates == ["UTDV00001", "UTIS00001"])
    }

    @Test func aWrongSignature() throws {
        let pki = try PKI(.ecdsa(.sha256))
        let key = pki.terminalKey
        let terminal = try TerminalConfiguration(certificates: [pki.cvca, pki.dv, pki.terminal].map(\.encoded)) {
            data in
            var signature = try key.sign(data, algorithm: .ecdsa(.sha256))
            signature[5] ^= 0x40
            return signature
        }
        let status = refused(try Chip(trusting: pki).read(terminal), .failed, naming: "UTIS00001")
        #expect(status.statusWord == "6300")
    }

    /// A signer that fails (an HSM that is down) is a failure of Terminal Authentication only.
    @Test func aFailingSigner() throws {
        struct Down: Error, CustomStringConvertible { var description: String { "the HSM is down" } }
        let pki = try PKI(.ecdsa(.sha256))
        let terminal = try TerminalConfiguration(certificates: [pki.cvca, pki.dv, pki.terminal].map(\.encoded)) {
            _ in throw Down()
        }
        let status = refused(try Chip(trusting: pki).read(terminal), .failed, naming: "HSM is down")
        #expect(status.statusWord == nil)
    }

    @Test func aDVOutsideTheTrustPoint() throws {
        let pki = try PKI(.ecdsa(.sha256))
        let foreign = try PKI(.ecdsa(.sha256), prefix: "XX")
        let chip = try Chip(trusting: pki)
        // No path from UTCVCA00001: nothing is presented.
        let unrelated = refused(try chip.read(try Self.terminal(foreign)), .notRun, naming: "UTCVCA00001")
        #expect(unrelated.certificates.isEmpty && unrelated.statusWord == nil)
        // A DV naming the trust point as its CAR, signed by another CVCA: the chip refuses it.
        let forged = try CVCertificate.issue(
            authorityReference: "UTCVCA00001", publicKey: foreign.dv.publicKey, holderReference: "XXDV00001",
            authorization: foreign.dv.authorization, effectiveDate: foreign.dv.effectiveDate,
            expirationDate: foreign.dv.expirationDate, signer: foreign.terminalKey, signingAlgorithm: .ecdsa(.sha256))
        let status = refused(
            try chip.read(try Self.terminal(foreign, certificates: [forged, foreign.terminal])), .failed,
            naming: "XXDV00001")
        #expect(status.statusWord == "6300")
    }

    /// The IS certificate's CHAT decides: DG4 alone, or neither.
    @Test func rightsComeFromTheCHAT() throws {
        let irisOnly = try PKI(.ecdsa(.sha256), rights: [.readDG4])
        let document = try Chip(trusting: irisOnly).read(try Self.terminal(irisOnly))
        #expect(document.authenticationStatus.terminal.status == .succeeded)
        #expect(document.deniedFiles == [.dg3] && document.encodedIdentificationFeaturesIris != nil)
        let none = try PKI(.ecdsa(.sha256), rights: [])
        let nothing = try Chip(trusting: none).read(try Self.terminal(none))
        #expect(nothing.authenticationStatus.terminal.status == .succeeded)
        #expect(nothing.deniedFiles == [.dg3, .dg4])
    }

    /// The JSON's `authenticationStatus.terminal`, and the configuration's own checks.
    @Test func jsonAndConfiguration() throws {
        let pki = try PKI(.ecdsa(.sha256))
        let document = try Chip(trusting: pki).read(try Self.terminal(pki))
        let json = try JSONValue.parse(travelDocumentToJson(document: document))
        let terminal = json["authenticationStatus"]?["terminal"]
        #expect(terminal?["status"] == "succeeded" && terminal?["statusWord"] == .null)
        #expect(terminal?["certificates"] == .array(["UTDV00001", "UTIS00001"]))
        #expect(json["encodedIdentificationFeaturesFinger"] != .null)

        func invalid(_ body: () throws -> Void) -> String? {
            do { try body() } catch let error as ReadError where error.kind == .invalidArgument {
                return error.reason
            } catch {
                Issue.record("\(error)")
            }
            return nil
        }
        #expect(
            invalid { _ = try TerminalConfiguration(certificates: [[0x7F, 0x21, 0x00]]) { $0 } }?.contains("1") == true)
        #expect(invalid { _ = try TerminalConfiguration(certificates: [pki.cvca.encoded]) { $0 } } != nil)
        let other = try PKI(.ecdsa(.sha256))
        let mismatch = invalid {
            _ = try TerminalConfiguration(
                certificates: [pki.terminal.encoded], privateKey: try other.terminalKey.pkcs8())
        }
        #expect(mismatch?.contains("UTIS00001") == true)
    }
}
