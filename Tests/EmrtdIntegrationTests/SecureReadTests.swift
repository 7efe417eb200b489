import CMS
import ChipSimulator
import Foundation
import JSON
import LDS
import MRZ
import Testing
import Transport

@testable import Emrtd

/// The whole read as it runs on a real chip — access control of the `AccessControl` package
/// (BAC, 3DES secure messaging, the READ BINARY ladder) against the simulator's independent chip
/// side — including every fault the simulator can show and what the read makes of it.
@Suite struct SecureReadTests {
    static let accessKey = OrchestrationTests.accessKey

    /// A BAC chip with the specimen's files and the keys behind its DG14 and DG15 (no PACE offer).
    static func chip(_ specimen: Specimen, _ configure: (inout ChipConfiguration) -> Void = { _ in }) -> SimulatedChip {
        var credentials = specimen.credentials
        credentials.paceOffers = []
        var configuration = ChipConfiguration(files: specimen.files, credentials: credentials)
        configure(&configuration)
        return SimulatedChip(configuration: configuration)
    }

    static func reader(_ specimen: Specimen, debug: Bool = false) throws -> EmrtdReader {
        try EmrtdReader(
            config: ReaderConfig(
                useBuiltInAuthorityCertificates: false,
                authorityCertificates: [Data(specimen.countrySigningCertificate)],
                debug: debug))
    }

    static func hashes(_ document: TravelDocument) -> [Int: HashStatus] {
        Dictionary(
            uniqueKeysWithValues: document.authenticationStatus.data.dataGroupHashes.map {
                (Int($0.dataGroupNumber), $0.status)
            })
    }

    @Test func basicAccessControlRead() throws {
        let specimen = try Specimen.generate(rich: true)
        let document = try Self.reader(specimen).read(transport: Self.chip(specimen), accessKey: Self.accessKey)
        #expect(document.accessControlProtocolUsed == .bac)
        #expect(document.authenticationStatus.data.status == .authenticated)
        #expect(document.deniedFiles == [.dg3])
        #expect(
            document.ldsMasterFile.filesRead == [
                .com, .sod, .dg1, .dg2, .dg5, .dg7, .dg11, .dg12, .dg13, .dg14, .dg15, .dg16,
            ])
        #expect(document.warnings.isEmpty, "\(document.warnings)")
    }

    @Test func wrongKeyAndCANWithoutPACE() throws {
        let specimen = try Specimen.generate()
        let wrong = AccessKey.mrz(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940624")
        #expect {
            try Self.reader(specimen).read(transport: Self.chip(specimen), accessKey: wrong)
        } throws: { ($0 as? ReadError)?.kind == .accessControl }
        #expect {
            try Self.reader(specimen).read(
                transport: Self.chip(specimen), accessKey: .can(value: "123456"))
        } throws: { ($0 as? ReadError)?.kind == .accessControl }
    }

    /// The READ BINARY limits of real chips: the ladder finds what works, the data is the same.
    @Test func readLimits() throws {
        let specimen = try Specimen.generate()
        let setups: [(String, (inout ChipConfiguration) -> Void)] = [
            (
                "short only, 6700 above 223",
                {
                    $0.supportsExtendedLength = false
                    $0.maximumReadLength = 223
                    $0.oversizedRead = .wrongLength
                }
            ),
            (
                "6Cxx naming 160",
                {
                    $0.supportsExtendedLength = false
                    $0.maximumReadLength = 160
                    $0.oversizedRead = .exactLength
                }
            ),
            ("short answers of 100", { $0.maximumReadLength = 100 }),
            ("6700 above 1000", { $0.faults = [.wrongLengthAbove(1000)] }),
            ("6282 at the end", { $0.signalsEndOfFile = true }),
        ]
        for (name, setup) in setups {
            let document = try Self.reader(specimen).read(
                transport: Self.chip(specimen, setup), accessKey: Self.accessKey)
            #expect(document.authenticationStatus.data.status == .authenticated, "\(name)")
            #expect(document.ldsMasterFile.dataGroups[2] == specimen.files[dataGroup: 2], "\(name)")
        }
    }

    /// A chip answering 6Cxx to an over-long Le costs at most one APDU per file over a chip that
    /// simply answers with fewer bytes: the length it names is kept for the rest of the file and
    /// the next files.
    @Test(arguments: [192, 100, 40])
    func a6CxxLengthIsKept(limit: Int) throws {
        let specimen = try Specimen.generate(credentials: Credentials())
        var counts: [OversizedReadAnswer: Int] = [:]
        for answer in [OversizedReadAnswer.truncate, .exactLength] {
            let chip = Self.chip(specimen) {
                $0.supportsExtendedLength = false
                $0.maximumReadLength = limit
                $0.oversizedRead = answer
            }
            let document = try Self.reader(specimen).read(transport: chip, accessKey: Self.accessKey)
            #expect(document.ldsMasterFile.dataGroups[2] == specimen.files[dataGroup: 2], "\(limit), \(answer)")
            counts[answer] = chip.statistics.exchanges
        }
        let files = specimen.files.application.count + specimen.files.masterFile.count
        let (plain, exact) = (counts[.truncate] ?? 0, counts[.exactLength] ?? 0)
        #expect(plain > 0 && exact <= plain + files, "6C\(limit): \(exact) APDUs, \(plain) plain, \(files) files")
    }

    /// A wrong MAC on a response breaks the session: what was read before is kept, the rest is
    /// named in a warning, and without DG2 the data is `denied`.
    @Test func wrongMACMidRead() throws {
        let specimen = try Specimen.generate()
        // DG2 is mandatory: a session that ends while it is read ends the read, DG1 kept.
        #expect {
            try Self.reader(specimen).read(
                transport: Self.chip(specimen) { $0.faults = [.wrongResponseMAC(.readOf(0x0102))] },
                accessKey: Self.accessKey)
        } throws: { error in
            guard let error = error as? ReadError, error.kind == .read(.readingDataGroups) else { return false }
            return error.debugInfo?.filesRead?.dataGroups[1] != nil && error.debugInfo?.filesRead?.dataGroups[2] == nil
        }
        // After DG1 and DG2, the document comes back with what was read and a warning.
        let document = try Self.reader(specimen).read(
            transport: Self.chip(specimen) { $0.faults = [.wrongResponseMAC(.readOf(0x010F))] },
            accessKey: Self.accessKey)
        #expect(document.ldsMasterFile.dataGroups[2] != nil && document.ldsMasterFile.dataGroups[15] == nil)
        #expect(document.warnings.contains { $0.hasPrefix("the chip ended secure messaging") })
        #expect(Self.hashes(document)[2] == .valid && Self.hashes(document)[15] == .notRead)
    }

    /// Secure messaging's failure reaches the read typed, not as a link failure: a wrong MAC, or the
    /// chip answering in plain once it has dropped its keys, while DG11 is read keeps every file
    /// read before, and the warning says that the chip ended secure messaging, why, and what was
    /// left unread.
    @Test(arguments: [
        (ChipFault.wrongResponseMAC(.readOf(0x010B)), "the MAC does not match"),
        (.dropSession(.readOf(0x010B)), "the chip answered 6988"),
    ])
    func aSecureMessagingFailureKeepsWhatWasReadAndSaysWhy(fault: ChipFault, why: String) throws {
        let specimen = try Specimen.generate(rich: true)
        let document = try Self.reader(specimen).read(
            transport: Self.chip(specimen) { $0.faults = [fault] }, accessKey: Self.accessKey)
        let read = document.ldsMasterFile.filesRead
        #expect([.com, .sod, .dg1, .dg2, .dg5, .dg7, .dg14].allSatisfy(read.contains), "\(read)")
        #expect(!read.contains(.dg11) && !read.contains(.dg12))
        let warning = document.warnings.first { $0.hasPrefix("the chip ended secure messaging") } ?? ""
        #expect(warning.contains(why) && warning.contains("not read: dg11, "), "\(document.warnings)")
        #expect(!warning.contains("unexpected card exchange"))
        #expect(document.authenticationStatus.data.status == .authenticated)
        #expect(Self.hashes(document)[2] == .valid && Self.hashes(document)[11] == .notRead)
    }

    /// Progress as the bytes arrive, as the reference reports it: a 30 KB face read in answers of
    /// at most 1,000 bytes moves the percentage in small steps, never back, named `dg2`.
    @Test func progressClimbsWithEachAnswer() throws {
        let specimen = try Specimen.generate(faceSize: 30_000, credentials: Credentials())
        let log = OrchestrationTests.EventLog()
        _ = try Self.reader(specimen).read(
            transport: Self.chip(specimen) { $0.maximumReadLength = 1_000 }, accessKey: Self.accessKey,
            listener: log)
        let face = log.events.withLock { $0 }.filter { $0.hasPrefix("dg2 ") }.compactMap {
            Int($0.split(separator: " ")[1])
        }
        #expect(face.count >= 20, "\(face)")
        #expect(face == face.sorted())
        let steps = zip(face, face.dropFirst()).map { $1 - $0 }
        #expect((steps.max() ?? 100) <= 10, "\(face)")
    }

    /// The chip drops its session keys before DG1: no document, the files read kept in the error.
    /// With Chip Authentication, DG1 is the first answer under its keys, so the same drop is a
    /// chip that cannot answer under them (a clone); without it, a read that ended early.
    @Test func droppedSessionBeforeDG1() throws {
        for credentials in [Credentials(), try Specimen.standardCredentials()] {
            let specimen = try Specimen.generate(credentials: credentials)
            let expected: ReadError.Kind =
                credentials.chipAuthenticationKeys.isEmpty
                ? .read(.readingDataGroups) : .chipAuthentication
            #expect {
                try Self.reader(specimen).read(
                    transport: Self.chip(specimen) { $0.faults = [.dropSession(.readOf(0x0101))] },
                    accessKey: Self.accessKey)
            } throws: { error in
                guard let error = error as? ReadError, error.kind == expected else { return false }
                // What was read before is kept.
                return error.debugInfo?.filesRead?.filesRead.starts(with: [.com, .sod]) == true
            }
        }
    }

    /// A bare status word under secure messaging (no MAC): 6A82 for DG12 means it is not there.
    @Test func bareStatusWord() throws {
        let specimen = try Specimen.generate()
        let document = try Self.reader(specimen).read(
            transport: Self.chip(specimen) { $0.faults = [.bareStatusWord(0x6A82, .readOf(0x010C))] },
            accessKey: Self.accessKey)
        #expect(document.additionalDocumentDetails == nil)
        #expect(Self.hashes(document)[12] == .notRead)
        #expect(document.authenticationStatus.data.status == .authenticated)
    }

    /// Responses without DO'99' (as the ePass gives them) are accepted: the MAC still covers the data.
    @Test func responsesWithoutStatusWordObject() throws {
        let specimen = try Specimen.generate()
        let document = try Self.reader(specimen).read(
            transport: Self.chip(specimen) { $0.faults = [.omitStatusWordObject] }, accessKey: Self.accessKey)
        #expect(document.authenticationStatus.data.status == .authenticated)
    }

    /// A chip slow to answer the read of DG1, behind a link that really waits, gives the same files
    /// as a fast chip: the reader waits for the answer instead of giving up on it. The link model
    /// charges every exchange its latency plus its bytes' time.
    @Test func slowAnswers() throws {
        let specimen = try Specimen.generate()
        let link = LinkModel(bitsPerSecond: 106_000, latencyPerExchange: .milliseconds(1), waits: true)
        let slowChip = Self.chip(specimen) {
            $0.link = link
            $0.faults = [.slowAnswer(.milliseconds(50), .readOf(0x0101))]
        }
        let slow = try Self.reader(specimen).read(transport: slowChip, accessKey: Self.accessKey)
        let fast = try Self.reader(specimen).read(transport: Self.chip(specimen), accessKey: Self.accessKey)
        #expect(slow.ldsMasterFile.filesRead.contains(.dg1))
        #expect(slow.ldsMasterFile.filesRead == fast.ldsMasterFile.filesRead)
        for kind in fast.ldsMasterFile.filesRead {
            #expect(slow.ldsMasterFile[kind] == fast.ldsMasterFile[kind], "\(kind)")
        }
        #expect(slow.authenticationStatus.data.status == .authenticated)
        let statistics = slowChip.statistics
        #expect(statistics.exchanges == slow.debugInfo.apduCount)
        #expect(statistics.linkTime > link.latencyPerExchange * statistics.exchanges)
    }

    @Test func lostChip() throws {
        let specimen = try Specimen.generate()
        #expect {
            try Self.reader(specimen).read(
                transport: Self.chip(specimen) { $0.faults = [.tagLost(.secureCommand(6))] }, accessKey: Self.accessKey)
        } throws: { ($0 as? ReadError)?.kind == .transport(.TagLost) }
    }

    /// The debug log has every step and APDU with its time, and never the MRZ, its key input or
    /// the data in clear: APDUs are logged below secure messaging, BAC cryptograms redacted.
    @Test func debugLogIsRedacted() throws {
        let specimen = try Specimen.generate()
        let document = try Self.reader(specimen, debug: true).read(
            transport: Self.chip(specimen), accessKey: Self.accessKey)
        let log = document.debugInfo.events
        #expect(log.count > 20)
        #expect(log.map(\.timestampMillis) == log.map(\.timestampMillis).sorted())
        let text = log.map(\.message).joined(separator: "\n")
        #expect(text.contains(" bytes redacted>"))
        for secret in ["L898902C", "4C 38 39 38 39 30 32 43", "ERIKSSON", "45 52 49 4B 53 53 4F 4E"] {
            #expect(!text.contains(secret), "\(secret) in the log")
        }
        #expect(text.contains("passive authentication: authenticated"))
    }

    /// The JSON of a BAC read (every key of the reference: `ReferenceJSONTests`).
    @Test func jsonOfABACRead() throws {
        let specimen = try Specimen.generate()
        let document = try Self.reader(specimen).read(transport: Self.chip(specimen), accessKey: Self.accessKey)
        let json = try JSONValue.parse(travelDocumentToJson(document: document))
        let data = json["authenticationStatus"]?["data"]
        let chip = json["authenticationStatus"]?["chip"]
        #expect(json["paceMapping"] == .null && json["encodedIdentificationFeaturesFinger"] == .null)
        #expect(json["accessControlProtocolUsed"] == "bac")
        // The chip ran Chip Authentication with its DG14 key, which Passive Authentication verified.
        #expect(data?["status"] == "authenticated" && chip?["status"] == "authenticated")
        #expect(chip?["protocol"] == "chipAuthentication")
        #expect(
            json["ldsMasterFile"]?["lds1EmrtdApplication"]?["dg1"]?["bytes"]
                == .string(Data(specimen.files[dataGroup: 1] ?? []).base64EncodedString()))
    }
}
