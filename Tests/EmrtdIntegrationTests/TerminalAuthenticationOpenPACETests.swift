import AccessControl
import Arithmetic
import CVCertificates
import ChipAuthentication
import ChipSimulator
import Foundation
import LDS
import MRZ
import SecureMessaging
import Synchronization
import TestSupport
import Testing
import Transport

/// Terminal Authentication v1 checked by an independent implementation, OpenPACE (Debian's
/// `libeac`), through `Tests/Peers/openpace-ta-check.c`, compiled here with gcc.
///
/// - Our reader's TA, OpenPACE's chip side: the reader authenticates to the simulator after BAC
///   (or PACE) and Chip Authentication; the plain APDUs of that run are recorded (the certificates
///   of PSO:Verify Certificate in order, r_PICC from GET CHALLENGE, the public key of Chip
///   Authentication's GENERAL AUTHENTICATE, the signature of EXTERNAL AUTHENTICATE), and OpenPACE,
///   trusting the chip's CVCA, imports each certificate (`TA_STEP2_import_certificate`) and checks
///   the signature (`TA_STEP6_verify`). One byte changed in the signature, in r_PICC or in a
///   certificate fails.
/// - OpenPACE's terminal, our chip side: `TA_STEP5_sign` signs the simulator's challenge with the
///   test PKI's terminal key, the simulator accepts it and opens DG3; a changed r_PICC is refused.
///   RSA-PSS excepted (`ourChipSideAcceptsOpenPACEsTerminal`).
///
/// OpenSC's npa-tool is not used: it runs EAC v2 (TA before CA), not the eMRTD's TA v1
/// (`../shared/peers/README.md`).
@Suite struct TerminalAuthenticationOpenPACETests {
    typealias PKI = TerminalAuthenticationTests.PKI

    /// The plain commands and answers of a secure channel, in order.
    final class Recorder: PlainAPDUObserver {
        let exchanges = Mutex<[(command: CommandAPDU, response: ResponseAPDU)]>([])

        func willProtect(_ command: CommandAPDU) {}

        func didUnprotect(_ response: ResponseAPDU, of command: CommandAPDU) {
            exchanges.withLock { $0.append((command, response)) }
        }

        /// The answers' data to commands with instruction `ins`.
        func responses(ins: UInt8) -> [[UInt8]] {
            exchanges.withLock { $0.filter { $0.command.ins == ins }.map(\.response.data) }
        }

        /// The data of commands with instruction `ins` (and `p2` when given).
        func commands(ins: UInt8, p2: UInt8? = nil) -> [[UInt8]] {
            exchanges.withLock {
                $0.filter { $0.command.ins == ins && (p2 == nil || $0.command.p2 == p2) }.map(\.command.data)
            }
        }
    }

    /// A chip trusting `pki`'s CVCA, opened with BAC, or with PACE when it offers `paceOffer`;
    /// Chip Authentication (ECDH, AES) run over a channel whose plain APDUs `recorder` sees.
    struct RecordedSession {
        let chip: SimulatedChip
        let channel: SecureChannel
        let recorder = Recorder()
        let chipAuthentication: ChipAuthenticationV1.Outcome
        /// ID_PICC (9303-11 §7.1.2): after BAC the document number and its check digit as the
        /// specimen's MRZ prints them; after PACE the x coordinate of the chip's ephemeral point.
        let chipIdentifier: [UInt8]

        init(trusting pki: PKI, paceOffer: String? = nil) throws {
            let credentials = Credentials(
                paceOffers: try paceOffer.map { [try PACEOffer(named: $0)] } ?? [],
                chipAuthenticationKeys: [try ChipAuthenticationKey.generate(named: "ECDH-AES-128:13")])
            let specimen = try Specimen.generate(rich: true, credentials: credentials)
            var files = specimen.files
            files[dataGroup: 3] = EncodedIdentificationFeatures.encodedFinger(
                image: TerminalAuthenticationTests.Session.fingerImage, width: 400, height: 500, position: 2)
            chip = SimulatedChip(
                configuration: ChipConfiguration(
                    files: files, credentials: specimen.credentials,
                    terminalAuthentication: TerminalAuthenticationSetup(
                        trustPoint: pki.cvca, currentDate: CVCDate(year: 2026, month: 6, day: 1)!)))
            let opened = try ChipAccess.open(
                chip,
                accessKey: try AccessPassword.mrz(
                    documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623"))
            if paceOffer != nil {
                let chipKey = try #require(opened.access.paceResult?.chipEphemeralPublicKey)
                try #require(chipKey.count % 2 == 1 && chipKey.first == 0x04)
                chipIdentifier = Array(chipKey[1...(chipKey.count / 2)])
            } else {
                try #require(opened.access.paceResult == nil)
                chipIdentifier = Array("L898902C<3".utf8)
            }
            let opening = try #require(opened.secureChannel)
            channel = SecureChannel(base: opening.base, session: opening.currentSession, observer: recorder)
            let dg14 = try SecurityOptions(try #require(specimen.files[dataGroup: 14]), kind: .dg14)
            let offer = try #require(ChipAuthenticationOffer.offers(in: dg14).offers.first)
            chipAuthentication = try ChipAuthenticationV1.run(offer, over: channel)
        }

        /// Terminal Authentication by the reader, the chain from EF.CVCA's trust point.
        func authenticate(_ pki: PKI, signer: @escaping TerminalAuthenticationV1.Signer) throws -> CVCertificate {
            let trustPoints = try TerminalAuthenticationV1.readTrustPoints(over: channel)
            return try TerminalAuthenticationV1.run(
                certificates: try TerminalAuthenticationV1.path(
                    from: [pki.terminal, pki.cvca, pki.dv], trustPoints: trustPoints),
                documentIdentifier: chipIdentifier,
                chipAuthentication: chipAuthentication, signer: signer, over: channel)
        }

        /// Comp(PK_PCD) as recorded: the x coordinate of the reader's ephemeral point in Chip
        /// Authentication's GENERAL AUTHENTICATE (`7C { 80 04‖x‖y }`).
        func recordedCompressedTerminalKey() throws -> [UInt8] {
            let data = try #require(recorder.commands(ins: 0x86).first)
            try #require(data.count > 4 && data[0] == 0x7C && data[2] == 0x80 && data[4] == 0x04)
            let point = Array(data[4...])
            try #require(point.count == Int(data[3]) && point.count % 2 == 1)
            return Array(point[1...(point.count / 2)])
        }

        /// SELECT DG3 and one READ BINARY: its status word.
        func readDG3() throws -> StatusWord {
            let identifier = ChipFiles.dataGroupIdentifier(3)
            let select = try channel.send(
                CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [UInt8(identifier >> 8), UInt8(identifier & 0xFF)]))
            guard select.statusWord.isSuccess else { return select.statusWord }
            return try channel.send(CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 16)).statusWord
        }
    }

    struct BuildFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// `openpace-ta-check` built once per run into `.build/peers`, or why it could not be.
    static let checker: Result<String, BuildFailure> = {
        let source = Prerequisites.repositoryRoot.appendingPathComponent("Tests/Peers/openpace-ta-check.c").path
        let directory = Prerequisites.repositoryRoot.appendingPathComponent(".build/peers")
        let built = directory.appendingPathComponent("openpace-ta-check").path
        let temporary = built + ".\(getpid())"
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            // `openPACE()` found gcc before the first use.
            guard let gcc = Prerequisites.tool("gcc", package: "gcc") else {
                return .failure(BuildFailure(description: "no gcc"))
            }
            let compiled = try Subprocess.run(
                gcc,
                ["-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", "-o", temporary, source, "-leac", "-lcrypto"])
            guard compiled.status == 0 else {
                return .failure(BuildFailure(description: "gcc failed: \(compiled.combinedOutput)"))
            }
            guard rename(temporary, built) == 0 else {
                return .failure(BuildFailure(description: "cannot move \(temporary) to \(built)"))
            }
            return .success(built)
        } catch {
            return .failure(BuildFailure(description: "\(error)"))
        }
    }()

    /// The compiled checker, or nil (a skip, or an issue under `CI=true`) without gcc or libeac-dev.
    func openPACE() -> String? {
        guard Prerequisites.tool("gcc", package: "gcc") != nil, Prerequisites.package("libeac-dev") else { return nil }
        switch Self.checker {
        case .success(let path): return path
        case .failure(let error):
            Issue.record("openpace-ta-check: \(error)")
            return nil
        }
    }

    /// An ECDSA signature in TR-03111's plain form, r ‖ s each as long as the curve's order,
    /// which the chip side (ours, as a real chip's) requires. OpenPACE writes both halves only as
    /// long as the longer of r and s (OpenSSL's `BN_num_bytes`), so on P-521 about a quarter of its
    /// signatures are 130 bytes, not 132: each half is widened with leading zeros, the same
    /// integers, and anything else is returned as it came for the chip to judge.
    static func plainForm(_ signature: [UInt8], algorithm: TerminalAuthenticationAlgorithm, curve: Int) throws
        -> [UInt8]
    {
        guard case .ecdsa = algorithm, let order = StandardDomainParameters.curve(id: curve)?.orderLength,
            signature.count % 2 == 0, signature.count < 2 * order
        else { return signature }
        let half = signature.count / 2
        let padding = [UInt8](repeating: 0, count: order - half)
        return padding + signature.prefix(half) + padding + signature.suffix(half)
    }

    static func hexString(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02X", $0) }.joined() }

    /// The bytes of `text`, the checker's hex output; nil when it is not hex.
    static func bytes(hex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        return bytes
    }

    /// A directory of its own for one test's files, removed by the caller.
    static func scratchDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openpace-ta-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A byte of `bytes` changed.
    static func tampered(_ bytes: [UInt8], at index: Int) -> [UInt8] {
        var changed = bytes
        changed[index] ^= 0x01
        return changed
    }

    /// OpenPACE's chip side on a transcript: its answer ("OK", "FAIL certificate N", "FAIL
    /// signature"), after recording an issue when the checker reports an error.
    static func openPACEVerifies(
        _ checker: String, trustPoint: String, chipIdentifier: [UInt8], challenge: [UInt8], compressedKey: [UInt8],
        signature: [UInt8], certificates: [String]
    ) throws -> String {
        let result = try Subprocess.run(
            checker,
            ["verify", trustPoint]
                + [chipIdentifier, challenge, compressedKey, signature].map(hexString) + certificates)
        if result.status == 2 { Issue.record("openpace-ta-check: \(result.combinedOutput)") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Writes `bytes` to `name` in `directory`; its path.
    static func write(_ bytes: [UInt8], _ name: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try #require(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return path
    }

    @Test(arguments: TerminalAuthenticationTests.algorithms)
    func openPACEsChipSideAcceptsOurTerminal(algorithm: TerminalAuthenticationAlgorithm, curve: Int) throws {
        try checkOurTerminal(algorithm: algorithm, curve: curve, paceOffer: nil)
    }

    /// After PACE, ID_PICC is the chip's ephemeral PACE key compressed.
    @Test(arguments: ["ECDH-GM-AES-128:12", "ECDH-IM-AES-256:13"])
    func openPACEsChipSideAcceptsOurTerminalAfterPACE(paceOffer: String) throws {
        try checkOurTerminal(algorithm: .ecdsa(.sha256), curve: 13, paceOffer: paceOffer)
    }

    /// Our reader's Terminal Authentication against the simulator, its transcript checked by
    /// OpenPACE's chip side; one byte changed in the signature, r_PICC or a certificate fails.
    func checkOurTerminal(algorithm: TerminalAuthenticationAlgorithm, curve: Int, paceOffer: String?) throws {
        guard let checker = openPACE() else { return }
        let pki = try PKI(algorithm, curve: curve)
        let session = try RecordedSession(trusting: pki, paceOffer: paceOffer)
        let terminal = try session.authenticate(
            pki, signer: TerminalAuthenticationV1.signer(key: pki.terminalKey, algorithm: algorithm))
        #expect(terminal.holderReference == "UTIS00001")
        #expect(try session.readDG3().isSuccess)

        // The transcript, from the plain APDUs.
        let certificates = session.recorder.commands(ins: 0x2A, p2: 0xBE)
        #expect(certificates == [pki.dv.content, pki.terminal.content])
        let challenge = try #require(session.recorder.responses(ins: 0x84).first)
        #expect(challenge.count == 8)
        let signature = try #require(session.recorder.commands(ins: 0x82).first)
        let compressedKey = try session.recordedCompressedTerminalKey()
        #expect(compressedKey == session.chipAuthentication.compressedTerminalKey)
        let trustPoint = try #require(session.chip.configuration.terminalAuthentication?.trustPoint)

        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cvca = try Self.write(trustPoint.encoded, "cvca.cvcert", in: directory)
        let paths = try certificates.enumerated().map { try Self.write($1, "certificate\($0 + 1)", in: directory) }
        func verify(challenge: [UInt8], signature: [UInt8], certificates: [String] = paths) throws -> String {
            try Self.openPACEVerifies(
                checker, trustPoint: cvca, chipIdentifier: session.chipIdentifier, challenge: challenge,
                compressedKey: compressedKey, signature: signature, certificates: certificates)
        }
        var answer = try verify(challenge: challenge, signature: signature)
        #expect(answer == "OK")
        answer = try verify(challenge: challenge, signature: Self.tampered(signature, at: signature.count / 2))
        #expect(answer == "FAIL signature")
        answer = try verify(challenge: Self.tampered(challenge, at: 3), signature: signature)
        #expect(answer == "FAIL signature")
        // A certificate with a byte of its signature changed is refused where it stands.
        let terminalContent = try #require(certificates.last)
        let broken = try Self.write(
            Self.tampered(terminalContent, at: terminalContent.count - 5), "broken", in: directory)
        answer = try verify(challenge: challenge, signature: signature, certificates: [paths[0], broken])
        #expect(answer == "FAIL certificate 2")
    }

    /// OpenPACE's `TA_STEP5_sign` signs the simulator's challenge with the test PKI's terminal key.
    ///
    /// RSA-PSS is the exception, and the test shows it: OpenPACE leaves the salt length to
    /// OpenSSL, whose default when signing (3.0, Debian 12) is the largest the key allows, where
    /// TR-03110 (and so the simulator, and the reader's own signer) uses a salt as long as the hash.
    /// The simulator refuses that signature (6300) while OpenPACE's own chip side, which accepts
    /// any salt length, verifies it.
    @Test(arguments: TerminalAuthenticationTests.algorithms)
    func ourChipSideAcceptsOpenPACEsTerminal(algorithm: TerminalAuthenticationAlgorithm, curve: Int) throws {
        guard let checker = openPACE() else { return }
        let pki = try PKI(algorithm, curve: curve)
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyPath = directory.appendingPathComponent("terminal.pkcs8").path
        let key = try pki.terminalKey.pkcs8()
        #expect(
            key.withUnsafeBytes {
                FileManager.default.createFile(
                    atPath: keyPath, contents: Data($0), attributes: [.posixPermissions: 0o600])
            })
        let certificatePath = try Self.write(pki.terminal.content, "terminal.cvcert", in: directory)

        /// A signer that hands OpenPACE the recorded challenge, with `change` applied to it.
        func openPACESigner(_ session: RecordedSession, change: @escaping @Sendable ([UInt8]) -> [UInt8])
            -> TerminalAuthenticationV1.Signer
        {
            let compressedKey = session.chipAuthentication.compressedTerminalKey
            let chipIdentifier = session.chipIdentifier
            let recorder = session.recorder
            return { data in
                let challenge = try #require(recorder.responses(ins: 0x84).last)
                #expect(data == chipIdentifier + challenge + compressedKey)
                let result = try Subprocess.run(
                    checker,
                    ["sign", keyPath, certificatePath]
                        + [chipIdentifier, change(challenge), compressedKey].map(Self.hexString))
                #expect(result.status == 0, "\(result.combinedOutput)")
                let signature = try #require(
                    Self.bytes(hex: result.output.trimmingCharacters(in: .whitespacesAndNewlines)))
                return try Self.plainForm(signature, algorithm: algorithm, curve: curve)
            }
        }

        let session = try RecordedSession(trusting: pki)
        #expect(try session.readDG3() == .securityStatusNotSatisfied)
        if case .rsaPSS = algorithm {
            #expect {
                try session.authenticate(pki, signer: openPACESigner(session) { $0 })
            } throws: { ($0 as? ChipAuthenticationError)?.statusWord == .verificationFailed }
            #expect(try session.readDG3() == .securityStatusNotSatisfied)
            let signature = try #require(session.recorder.commands(ins: 0x82).first)
            let challenge = try #require(session.recorder.responses(ins: 0x84).first)
            let cvca = try Self.write(pki.cvca.encoded, "cvca.cvcert", in: directory)
            let dv = try Self.write(pki.dv.content, "dv.cvcert", in: directory)
            let answer = try Self.openPACEVerifies(
                checker, trustPoint: cvca, chipIdentifier: session.chipIdentifier, challenge: challenge,
                compressedKey: session.chipAuthentication.compressedTerminalKey, signature: signature,
                certificates: [dv, certificatePath])
            #expect(answer == "OK")
            return
        }
        let terminal = try session.authenticate(pki, signer: openPACESigner(session) { $0 })
        #expect(terminal.holderReference == "UTIS00001")
        #expect(try session.readDG3().isSuccess)

        let refused = try RecordedSession(trusting: pki)
        #expect {
            try refused.authenticate(pki, signer: openPACESigner(refused) { Self.tampered($0, at: 0) })
        } throws: { ($0 as? ChipAuthenticationError)?.statusWord == .verificationFailed }
        #expect(try refused.readDG3() == .securityStatusNotSatisfied)
    }
}
