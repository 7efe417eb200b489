import ASN1
import ChipSimulator
import LDS
import MRZ
import Synchronization
import Testing
import Transport

@testable import Emrtd

/// The real-chip catalogue (`../shared/reference/field-quirks.md`, the table in
/// `Packages/ChipSimulator/FIELD-QUIRKS.md`): each quirk a PC/SC reader can meet, shown by the
/// simulator, and the whole document read through it to the verdict the quirk allows.
@Suite struct FieldQuirksTests {
    /// The rich specimen with its standard credentials (PACE-CAM, Chip and Active Authentication),
    /// made once: each test configures its own chip around the same files.
    static let specimen = Result { try Specimen.generate(rich: true) }

    /// A chip serving the specimen: over PACE (the specimen's PACE-CAM offer) or BAC only (Chip
    /// Authentication then proves the chip), with `faults`.
    static func chip(
        pace: Bool, faults: [ChipFault], _ configure: (inout ChipConfiguration) throws -> Void = { _ in }
    ) throws -> SimulatedChip {
        let specimen = try specimen.get()
        var credentials = specimen.credentials
        if !pace { credentials.paceOffers = [] }
        var configuration = ChipConfiguration(files: specimen.files, credentials: credentials, faults: faults)
        try configure(&configuration)
        return SimulatedChip(configuration: configuration)
    }

    static func read(_ transport: any APDUTransport, accessKey: AccessKey = OrchestrationTests.accessKey)
        throws -> TravelDocument
    {
        try SecureReadTests.reader(try specimen.get(), debug: true).read(transport: transport, accessKey: accessKey)
    }

    /// The document is whole: every file the chip holds read byte for byte (DG3 denied), the data
    /// authenticated, the chip proved, and nothing to warn about.
    static func expectWhole(_ document: TravelDocument, pace: Bool, _ name: String) throws {
        let specimen = try specimen.get()
        #expect(document.accessControlProtocolUsed == (pace ? .pace : .bac), "\(name)")
        #expect(document.authenticationStatus.data.status == .authenticated, "\(name)")
        #expect(document.authenticationStatus.chip.status == .authenticated, "\(name)")
        #expect(document.deniedFiles == [.dg3], "\(name)")
        for number in [1, 2, 5, 7, 11, 12, 13, 14, 15, 16] {
            #expect(
                document.ldsMasterFile.dataGroups[number] == specimen.files[dataGroup: number], "\(name): DG\(number)")
        }
        #expect(document.warnings.isEmpty, "\(name): \(document.warnings)")
    }

    // MARK: Transport / APDU (items 1, 2, 3, 5)

    /// READ BINARY answers real chips give to an Le they cannot serve or to a read at the end of a
    /// file: 6700 or 9000 with nothing above 160 bytes (items 1 and 5), nothing to any extended Le,
    /// 6B00 to a read passing the end, 6282 with stray padding after the last byte (item 2). The
    /// ladder finds what works; the padding is cut at the declared length.
    @Test(arguments: [false, true])
    func readAnswers(pace: Bool) throws {
        let setups: [(String, [ChipFault], Bool)] = [
            ("6700 above 160", [.wrongLengthAbove(160)], false),
            ("empty above 160", [.emptyAnswerAbove(160)], false),
            ("empty to an extended Le", [.emptyAnswerAbove(256)], true),
            ("6B00 past the end", [.refusesReadPastEnd], false),
            ("6B00 past the end, extended", [.refusesReadPastEnd], true),
            ("padded end of file", [.paddedEndOfFile], false),
            ("empty above 128, 6B00 past the end", [.emptyAnswerAbove(128), .refusesReadPastEnd], false),
        ]
        for (name, faults, extended) in setups {
            let chip = try Self.chip(pace: pace, faults: faults) { $0.supportsExtendedLength = extended }
            try Self.expectWhole(try Self.read(chip), pace: pace, "\(name), \(pace ? "PACE" : "BAC")")
        }
    }

    /// EF.SOD in BER with an indefinite outer length (US passports, item 17) on chips that refuse
    /// reads past the end with 6B00 or not: the reader ends the file at its end-of-contents, asks
    /// for less when a read passes the end, and Passive Authentication checks the bytes as read.
    @Test(arguments: [false, true])
    func anIndefiniteLengthSecurityObject(extended: Bool) throws {
        let specimen = try Self.specimen.get()
        let sod = try #require(specimen.files.sod)
        let content = try ASN1Node.parse(sod, rules: .ber).content
        let indefinite: [UInt8] = [0x77, 0x80] + content + [0x00, 0x00]
        for faults: [ChipFault] in [[], [.refusesReadPastEnd]] {
            let chip = try Self.chip(pace: false, faults: faults) {
                $0.files.sod = indefinite
                $0.supportsExtendedLength = extended
            }
            let document = try Self.read(chip)
            #expect(document.ldsMasterFile.sod == indefinite, "\(faults)")
            #expect(document.authenticationStatus.data.status == .authenticated, "\(faults)")
            #expect(document.warnings.isEmpty, "\(faults): \(document.warnings)")
        }
    }

    /// A chip refusing an Le on commands that answer no data (SELECT with P2 0C, MSE:Set): the
    /// reader never sends one, so PACE, Chip Authentication (MSE:Set AT and MSE:Set KAT) and every
    /// SELECT pass, and PACE is not silently given up for BAC (item 3).
    @Test func noLeOnCommandsWithoutAnswer() throws {
        try Self.expectWhole(
            try Self.read(try Self.chip(pace: true, faults: [.refusesLeWithoutAnswer])), pace: true, "PACE")
        try Self.expectWhole(
            try Self.read(try Self.chip(pace: false, faults: [.refusesLeWithoutAnswer])), pace: false, "BAC")
        // Chip Authentication with 3DES: MSE:Set KAT, DG14 written for the chip's 3DES key.
        let specimen = try Specimen.generate(
            credentials: try ChipAuthenticityTests.credentials(chipAuthentication: ["ECDH-3DES:13"]))
        let chip = CommandCounter(
            SimulatedChip(
                configuration: ChipConfiguration(
                    files: specimen.files, credentials: specimen.credentials, faults: [.refusesLeWithoutAnswer])))
        let document = try SecureReadTests.reader(specimen).read(
            transport: chip, accessKey: OrchestrationTests.accessKey)
        #expect(document.authenticationStatus.chip.protocol == .chipAuthentication)
        #expect(document.authenticationStatus.chip.status == .authenticated)
        #expect(chip.count(ins: 0x22) == 1 && chip.refusedForLength(ins: 0x22) == 0)
    }

    // MARK: SELECT MF and EF.CardAccess (item 4)

    /// SELECT MF refused in both forms (6A87 as Ukrainian chips, 6982 as New Zealand's): the MF is
    /// current after reset anyway, so EF.CardAccess is read and PACE runs. EF.CardAccess answered
    /// 6283 (Malaysia) or 6982 before access control: no PACE, BAC reads the document.
    @Test func masterFileAndCardAccessSelection() throws {
        for status: UInt16 in [0x6A87, 0x6982] {
            let chip = try Self.chip(pace: true, faults: [.bareStatusWord(status, .selectOf(0x3F00))])
            try Self.expectWhole(try Self.read(chip), pace: true, "SELECT MF \(StatusWord(status))")
        }
        for status: UInt16 in [0x6283, 0x6982] {
            let chip = try Self.chip(pace: true, faults: [.bareStatusWord(status, .selectOf(0x011C))])
            try Self.expectWhole(try Self.read(chip), pace: false, "SELECT EF.CardAccess \(StatusWord(status))")
        }
    }

    // MARK: Secure messaging (items 6, 7)

    /// A wrong MAC on a later frame of EF.SOD (a US passport's bug): the read fails closed with an
    /// error naming the file, the frame (offset and length) and the MAC; the debug log (`--debug`)
    /// holds that frame as the chip sent it, the diagnostic the catalogue asks for. No data the MAC
    /// did not cover is returned.
    @Test func aWrongMACOnAFrameOfEFSODFailsClosedAndNamesTheFrame() throws {
        // Without extended length EF.SOD takes several frames.
        let chip = try Self.chip(pace: false, faults: [.wrongResponseMAC(.readPastHeaderOf(0x011D))]) {
            $0.supportsExtendedLength = false
        }
        let error = #expect(throws: ReadError.self) { try Self.read(chip) }
        #expect(error?.kind == .read(.readingDataGroups))
        let reason = error?.reason ?? ""
        #expect(reason.contains("EF.SOD") && reason.contains("MAC") && reason.contains("at offset"), "\(reason)")
        let log = (error?.debugInfo?.events ?? []).map(\.message)
        // The last exchange on the wire: a READ BINARY of EF.SOD past its start, and the protected
        // frame whose MAC did not match, DO'8E' and all.
        let lastExchange = log.last { $0.hasPrefix("> ") }?.split(separator: "\n") ?? []
        #expect(lastExchange.first?.hasPrefix("> 0C B0 ") == true, "\(lastExchange)")
        #expect(lastExchange.last?.hasPrefix("< 87 ") == true && lastExchange.last?.contains(" 8E 08 ") == true)
        #expect(error?.debugInfo?.filesRead?.filesRead == [.com])
    }

    /// Chips that end secure messaging after any error answer (dmrtd re-runs access control for
    /// them; item 6): the data groups neither EF.COM nor EF.SOD names (DG14 and DG15, always tried)
    /// come after every listed one, and Active Authentication before them and DG3, so the chip's
    /// 6A82 or 6982 ends the session when nothing signed is left to read. With every file listed,
    /// the document is whole; on a chip without DG14, its 6A82 ends the session before DG3, which
    /// a warning names, and everything signed is read and the chip proved.
    @Test func aChipEndingSecureMessagingAfterAnErrorIsReadWhole() throws {
        try Self.expectWhole(
            try Self.read(try Self.chip(pace: true, faults: [.endsSessionOnError])), pace: true, "PACE")
        try Self.expectWhole(
            try Self.read(try Self.chip(pace: false, faults: [.endsSessionOnError])), pace: false, "BAC")

        let specimen = try Specimen.generate(
            rich: true,
            credentials: Credentials(activeAuthenticationKey: try Specimen.standardActiveAuthenticationKey()))
        #expect(specimen.files[dataGroup: 14] == nil)
        let chip = SimulatedChip(
            configuration: ChipConfiguration(
                files: specimen.files, credentials: specimen.credentials, faults: [.endsSessionOnError]))
        let document = try SecureReadTests.reader(specimen).read(
            transport: chip, accessKey: OrchestrationTests.accessKey)
        #expect(document.authenticationStatus.data.status == .authenticated)
        #expect(
            document.authenticationStatus.chip.status == .authenticated, "\(document.authenticationStatus.chip.reason)")
        #expect(document.authenticationStatus.chip.protocol == .activeAuthentication)
        for number in [1, 2, 5, 7, 11, 12, 13, 15, 16] {
            #expect(document.ldsMasterFile.dataGroups[number] == specimen.files[dataGroup: number], "DG\(number)")
        }
        #expect(document.warnings.count == 1 && document.warnings.first?.hasSuffix("not read: dg3") == true)
        #expect(SecureReadTests.hashes(document)[3] == .notRead)
    }

    // MARK: Access control (items 9, 13)

    /// PACE-only chips refusing BAC with 6985 (Dutch) or 6A88 (German) instead of 6D00: a PACE
    /// failure before mutual authentication stays the error, naming neither BAC nor the MRZ as
    /// the cause; with PACE working, the document reads whole without BAC ever being tried.
    @Test(arguments: [UInt16(0x6985), 0x6A88])
    func aPACEOnlyChipRefusingBAC(status: UInt16) throws {
        let refusal = ChipFault.bareStatusWord(status, .instruction(0x84))
        let working = CommandCounter(
            try Self.chip(pace: true, faults: [refusal]) { $0.offersBasicAccessControl = false })
        try Self.expectWhole(try Self.read(working), pace: true, "PACE-only, BAC \(StatusWord(status))")
        #expect(working.count(ins: 0x84) == 0)

        let broken = try Self.chip(pace: true, faults: [refusal, .pace(.runDropped(step: 2))]) {
            $0.offersBasicAccessControl = false
        }
        let error = #expect(throws: ReadError.self) { try Self.read(broken) }
        #expect(error?.kind == .accessControl)
        let reason = error?.reason ?? ""
        #expect(reason.contains("PACE") && reason.contains("BAC, tried instead, failed too"), "\(reason)")
        #expect(!reason.contains("check the document number"), "\(reason)")
    }

    /// EF.CardAccess as real chips write it (item 11): an unknown SecurityInfo, a
    /// TerminalAuthenticationInfo, a PACEInfo of a protocol no reader knows, an offer again
    /// without its OPTIONAL parameter ID; and GM and IM on the same curve (the French 2024 ID).
    /// The parser skips what it does not know, and PACE opens the chip.
    @Test func aClutteredCardAccessStillOpensWithPACE() throws {
        let offers: [[String]] = [[], ["ECDH-GM-AES-128:13", "ECDH-IM-AES-128:13"], ["ECDH-IM-AES-256:13"]]
        for names in offers {
            let chip = try Self.chip(pace: true, faults: [.clutteredCardAccess]) {
                if !names.isEmpty { try $0.offerPACE(try names.map { try PACEOffer(named: $0) }) }
            }
            let document = try Self.read(chip)
            #expect(document.accessControlProtocolUsed == .pace, "\(names)")
            #expect(document.authenticationStatus.data.status == .authenticated, "\(names)")
            #expect(document.warnings.isEmpty, "\(names): \(document.warnings)")
            // The offer without a parameter ID (and no PACEDomainParameterInfo to name them) is
            // passed over before any APDU; the unknown protocol is not offered at all.
            let log = document.debugInfo.events.map(\.message)
            #expect(log.contains { $0.hasPrefix("EF.CardAccess: ") && $0.contains("no parameter ID") }, "\(names)")
            #expect(!log.contains { $0.contains("0.4.0.127.0.7.2.2.4.9.9") }, "\(names)")
            #expect(log.contains { $0.hasPrefix("PACE: MSE:Set AT accepted") && $0.contains("parameters 13") })
        }
    }

    /// A chip refusing MSE:Set AT without the parameter ID (6A87, older Ukrainian passports) and
    /// one listing several PACEInfos (German and Polish eIDs): DO'84' goes with every offer that
    /// names its parameters, so PACE opens the chip with the strongest offer (item 10).
    @Test func theParameterIDIsAlwaysSent() throws {
        let offers = ["ECDH-GM-AES-128:13", "ECDH-GM-AES-256:12", "ECDH-GM-AES-256:13", "ECDH-CAM-AES-128:13"]
        let counter = CommandCounter(
            try Self.chip(pace: true, faults: [.pace(.requiresParameterID)]) {
                try $0.offerPACE(try offers.map { try PACEOffer(named: $0) })
            })
        try Self.expectWhole(try Self.read(counter), pace: true, "several PACEInfos, DO'84' required")
        #expect(counter.count(ins: 0x22) == 1)
    }

    /// A wrong password is one attempt: PACE's mutual authentication answered 6300 ends the access
    /// (no other PACE offer, no BAC with the same MRZ), so a chip that counts failures (and slows
    /// down or blocks) sees one (item 13). The error says a password was rejected.
    @Test func aWrongPasswordIsTriedOnce() throws {
        let wrong = AccessKey.mrz(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940624")
        let counter = CommandCounter(
            try Self.chip(pace: true, faults: []) {
                try $0.offerPACE([
                    try PACEOffer(named: "ECDH-GM-AES-128:13"), try PACEOffer(named: "ECDH-IM-AES-128:13"),
                ])
            })
        let error = #expect(throws: ReadError.self) { try Self.read(counter, accessKey: wrong) }
        #expect(error?.kind == .accessControl)
        #expect(error?.reason.contains("6300") == true, "\(error?.reason ?? "")")
        #expect(counter.count(ins: 0x22) == 1, "MSE:Set AT sent \(counter.count(ins: 0x22)) times")
        #expect(counter.count(ins: 0x84) == 0 && counter.count(ins: 0x82) == 0, "BAC tried after PACE's 6300")
    }

    // MARK: Chip and Active Authentication (items 14, 15)

    /// Active Authentication refused (6D00, 6A88, 6A81) by a chip whose DG15 holds a key, with no
    /// Chip Authentication to prove it otherwise: the read goes on and returns the document, the
    /// data authenticated, and the chip not proved, the reason naming the refusal (item 15). Only
    /// DG15 makes the reader try: without it, INTERNAL AUTHENTICATE is never sent.
    @Test(arguments: [UInt16(0x6D00), 0x6A88, 0x6A81])
    func activeAuthenticationRefused(status: UInt16) throws {
        let refusal = ChipFault.bareStatusWord(status, .instruction(0x88))
        let specimen = try Specimen.generate(
            credentials: Credentials(activeAuthenticationKey: try Specimen.standardActiveAuthenticationKey()))
        let chip = SimulatedChip(
            configuration: ChipConfiguration(
                files: specimen.files, credentials: specimen.credentials, faults: [refusal]))
        let document = try SecureReadTests.reader(specimen).read(
            transport: chip, accessKey: OrchestrationTests.accessKey)
        #expect(document.authenticationStatus.data.status == .authenticated)
        #expect(document.ldsMasterFile.dataGroups[2] == specimen.files[dataGroup: 2])
        #expect(document.authenticationStatus.chip.status == .denied)
        #expect(document.authenticationStatus.chip.activeAuthentication == .denied)
        let reason = document.authenticationStatus.chip.reason
        #expect(reason.contains(String(status, radix: 16, uppercase: true)), "\(reason)")

        let withoutDG15 = try Specimen.generate(credentials: Credentials())
        let counter = CommandCounter(
            SimulatedChip(
                configuration: ChipConfiguration(
                    files: withoutDG15.files, credentials: withoutDG15.credentials, faults: [refusal])))
        let plain = try SecureReadTests.reader(withoutDG15).read(
            transport: counter, accessKey: OrchestrationTests.accessKey)
        #expect(plain.authenticationStatus.data.status == .authenticated)
        #expect(counter.count(ins: 0x88) == 0)
    }

    /// An RSA-2048 Active Authentication signature cannot come back under secure messaging without
    /// extended length (a chip refuses the short Le, some cut the signature): over such a link the
    /// reader does not send INTERNAL AUTHENTICATE and says why, rather than calling a genuine chip
    /// a clone; an RSA-1024 key, whose answer fits, is proved over the same link (item 5).
    @Test func activeAuthenticationOverALinkWithoutExtendedLength() throws {
        for (name, proved) in [("rsa:2048:sha256", false), ("rsa:1024:sha256", true)] {
            let specimen = try Specimen.generate(
                credentials: Credentials(activeAuthenticationKey: try ActiveAuthenticationKey.generate(named: name)))
            let chip = CommandCounter(
                SimulatedChip(
                    configuration: ChipConfiguration(
                        files: specimen.files, credentials: specimen.credentials, supportsExtendedLength: false)))
            let document = try SecureReadTests.reader(specimen).read(
                transport: chip, accessKey: OrchestrationTests.accessKey)
            let verdict = document.authenticationStatus.chip
            #expect(document.authenticationStatus.data.status == .authenticated, "\(name)")
            #expect(verdict.status == (proved ? .authenticated : .notSupported), "\(name): \(verdict.reason)")
            #expect(chip.count(ins: 0x88) == (proved ? 1 : 0), "\(name)")
            if !proved { #expect(verdict.reason.contains("extended length"), "\(verdict.reason)") }
        }
    }

    /// Key IDs DG14 writes as a negative INTEGER (JMRTD reads them as negative numbers, item 14):
    /// the reader names the key in DO'84' by the INTEGER's own bytes, and the chip takes it.
    @Test func aNegativeKeyIDNamesItsKey() throws {
        var credentials = Credentials()
        credentials.chipAuthenticationKeys = [
            try ChipAuthenticationKey.generate(named: "ECDH-AES-128:13", keyIdentifier: -127)
        ]
        let document = try ChipAuthenticityTests.read(credentials)
        #expect(document.authenticationStatus.chip.status == .authenticated)
        #expect(document.authenticationStatus.chip.protocol == .chipAuthentication)
        #expect(
            ChipAuthenticityTests.log(document).contains {
                $0.hasPrefix("chip authentication started: ") && $0.contains("key ID -127")
            }, "\(ChipAuthenticityTests.log(document))")
    }

    /// Chip Authentication refused with 6F00 (Norwegian passports): a chip that will not prove it
    /// holds DG14's key cannot be told from a clone, so the read ends with a Chip Authentication
    /// error naming the status word, the files read before kept (item 14).
    @Test func chipAuthenticationRefused() throws {
        let chip = try Self.chip(pace: false, faults: [.bareStatusWord(0x6F00, .instruction(0x22, p1: 0x41))])
        let error = #expect(throws: ReadError.self) { try Self.read(chip) }
        #expect(error?.kind == .chipAuthentication)
        #expect(error?.reason.contains("6F00") == true, "\(error?.reason ?? "")")
        #expect(error?.debugInfo?.filesRead?.filesRead.starts(with: [.com, .sod]) == true)
    }

    // MARK: The named faults

    /// Every quirk `--chip-fault` names gives a chip the reader reads to its documented end.
    @Test func namedQuirks() throws {
        for name in [
            "read-empty-above-160", "read-6700-above-160", "read-past-end-6b00", "padded-end-of-file",
            "le-on-case-3-6700", "select-mf-6a87", "cluttered-card-access", "ends-session-on-error",
            "pace-requires-parameter-id",
        ] {
            try Self.expectWhole(
                try Self.read(try Self.chip(pace: true, faults: [try ChipFault(named: name)])), pace: true, name)
        }
        try Self.expectWhole(
            try Self.read(try Self.chip(pace: true, faults: [try ChipFault(named: "card-access-6283")])), pace: false,
            "card-access-6283")
        try Self.expectWhole(
            try Self.read(try Self.chip(pace: true, faults: [try ChipFault(named: "bac-6985")])), pace: true, "bac-6985"
        )
    }
}

/// A link that counts the commands it carries by instruction, and the 6700s the chip gave them
/// in plain (a refusal of their Le).
final class CommandCounter: APDUTransport {
    let chip: SimulatedChip
    private let counts = Mutex<(sent: [UInt8: Int], refused: [UInt8: Int])>(([:], [:]))

    init(_ chip: SimulatedChip) { self.chip = chip }

    var supportsExtendedLength: Bool { chip.supportsExtendedLength }

    func count(ins: UInt8) -> Int { counts.withLock { $0.sent[ins] ?? 0 } }
    func refusedForLength(ins: UInt8) -> Int { counts.withLock { $0.refused[ins] ?? 0 } }

    func transmit(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU {
        let answer = try chip.transmit(command)
        counts.withLock {
            $0.sent[command.ins, default: 0] += 1
            if answer.statusWord == .wrongLength { $0.refused[command.ins, default: 0] += 1 }
        }
        return answer
    }
}
