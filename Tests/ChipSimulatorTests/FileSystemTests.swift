import Foundation
import TestSupport
import Testing
import Transport

@testable import ChipSimulator

/// SELECT and READ BINARY as the chip's operating system answers them, plain (access control
/// switched off, so the file logic is seen without secure messaging).
@Suite struct FileSystemTests {
    static let large = (0..<40_000).map { UInt8(truncatingIfNeeded: $0 * 7) }

    static func openChip(
        maximumReadLength: Int = 65536, oversizedRead: OversizedReadAnswer = .truncate, extended: Bool = true,
        signalsEndOfFile: Bool = false, faults: [ChipFault] = []
    ) -> SimulatedChip {
        var files = ChipFiles()
        files.com = hex("60145F0104303130365F36063034303030305C026175")
        files[dataGroup: 2] = large
        files[dataGroup: 3] = [0x63, 0x00]
        files.cardAccess = hex("31 00")
        return SimulatedChip(
            configuration: ChipConfiguration(
                files: files, enforcesAccessControl: false, supportsExtendedLength: extended,
                maximumReadLength: maximumReadLength, oversizedRead: oversizedRead, signalsEndOfFile: signalsEndOfFile,
                faults: faults))
    }

    static func send(_ chip: SimulatedChip, _ command: CommandAPDU) throws -> ResponseAPDU {
        try chip.transmit(command)
    }

    static func read(fid: UInt16? = nil, offset: Int, length: Int) -> CommandAPDU {
        CommandAPDU(ins: 0xB0, p1: UInt8(offset >> 8), p2: UInt8(offset & 0xFF), expectedLength: length)
    }

    static func select(_ fid: UInt16) -> CommandAPDU {
        CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [UInt8(fid >> 8), UInt8(fid & 0xFF)])
    }

    static let selectApplication = CommandAPDU(
        ins: 0xA4, p1: 0x04, p2: 0x0C, data: [0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01])

    @Test func masterFileAndApplication() throws {
        let chip = Self.openChip()
        // EF.CardAccess lives in the MF; both forms of SELECT MF work.
        #expect(try Self.send(chip, CommandAPDU(ins: 0xA4, p1: 0x00, p2: 0x0C)).statusWord == .success)
        #expect(
            try Self.send(chip, CommandAPDU(ins: 0xA4, p1: 0x00, p2: 0x0C, data: [0x3F, 0x00])).statusWord == .success)
        #expect(try Self.send(chip, Self.select(0x011C)).statusWord == .success)
        #expect(try Self.send(chip, Self.read(offset: 0, length: 256)).data == hex("3100"))
        // EF.COM is not visible from the MF, and other AIDs are not there.
        #expect(try Self.send(chip, Self.select(0x011E)).statusWord == .fileNotFound)
        let otherAID = CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: [0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x02])
        #expect(try Self.send(chip, otherAID).statusWord == .fileNotFound)
        #expect(try Self.send(chip, Self.selectApplication).statusWord == .success)
        #expect(try Self.send(chip, Self.select(0x011E)).statusWord == .success)
        #expect(try Self.send(chip, Self.read(offset: 0, length: 4)).data == hex("60145F01"))
        #expect(try Self.send(chip, Self.select(0x0105)).statusWord == .fileNotFound)
    }

    @Test func readBinaryOffsetsAndEnd() throws {
        let chip = Self.openChip(signalsEndOfFile: true)
        _ = try Self.send(chip, Self.selectApplication)
        _ = try Self.send(chip, Self.select(0x011E))
        let tail = try Self.send(chip, Self.read(offset: 20, length: 8))
        #expect(tail.data == hex("6175") && tail.statusWord == .endOfFileReached)
        #expect(try Self.send(chip, Self.read(offset: 22, length: 1)).statusWord == .wrongParameters)
        // No Le: wrong length.
        #expect(try Self.send(chip, CommandAPDU(ins: 0xB0, p1: 0, p2: 0)).statusWord == .wrongLength)
    }

    @Test func shortFileIdentifierAndOddInstruction() throws {
        let chip = Self.openChip()
        _ = try Self.send(chip, Self.selectApplication)
        // SFI 02 selects DG2 and reads from offset P2.
        let bySFI = try Self.send(chip, CommandAPDU(ins: 0xB0, p1: 0x82, p2: 0x10, expectedLength: 16))
        #expect(bySFI.data == Array(Self.large[16..<32]))
        // B1 with DO'54' reaches offsets above 32767 and answers in DO'53'.
        let odd = try Self.send(chip, CommandAPDU(ins: 0xB1, p1: 0, p2: 0, data: hex("5403009C30"), expectedLength: 20))
        #expect(odd.statusWord == .success)
        #expect(
            odd.data.prefix(2) == [0x53, 0x10]
                && Array(odd.data.dropFirst(2)) == Array(Self.large[40_000 - 16..<40_000]))
        #expect(
            try Self.send(chip, CommandAPDU(ins: 0xB1, p1: 0, p2: 0, data: hex("5300"), expectedLength: 20)).statusWord
                == .incorrectData)
    }

    @Test func extendedReadAndLimits() throws {
        let chip = Self.openChip()
        _ = try Self.send(chip, Self.selectApplication)
        _ = try Self.send(chip, Self.select(0x0102))
        #expect(try Self.send(chip, Self.read(offset: 0, length: 65536)).data.count == 32768 + 7232)

        let truncating = Self.openChip(maximumReadLength: 223)
        _ = try Self.send(truncating, Self.selectApplication)
        _ = try Self.send(truncating, Self.select(0x0102))
        #expect(try Self.send(truncating, Self.read(offset: 0, length: 256)).data == Array(Self.large.prefix(223)))

        let strict = Self.openChip(maximumReadLength: 223, oversizedRead: .wrongLength)
        _ = try Self.send(strict, Self.selectApplication)
        _ = try Self.send(strict, Self.select(0x0102))
        #expect(try Self.send(strict, Self.read(offset: 0, length: 224)).statusWord == .wrongLength)
        #expect(try Self.send(strict, Self.read(offset: 0, length: 223)).data.count == 223)

        let exact = Self.openChip(maximumReadLength: 192, oversizedRead: .exactLength)
        _ = try Self.send(exact, Self.selectApplication)
        _ = try Self.send(exact, Self.select(0x0102))
        #expect(try Self.send(exact, Self.read(offset: 0, length: 256)).statusWord.exactLength == 192)

        let shortOnly = Self.openChip(extended: false)
        #expect(!shortOnly.supportsExtendedLength)
        _ = try Self.send(shortOnly, Self.selectApplication)
        _ = try Self.send(shortOnly, Self.select(0x0102))
        #expect(try Self.send(shortOnly, Self.read(offset: 0, length: 1000)).statusWord == .wrongLength)

        let faulty = Self.openChip(faults: [.wrongLengthAbove(160)])
        _ = try Self.send(faulty, Self.selectApplication)
        _ = try Self.send(faulty, Self.select(0x0102))
        #expect(try Self.send(faulty, Self.read(offset: 0, length: 161)).statusWord == .wrongLength)
        #expect(try Self.send(faulty, Self.read(offset: 0, length: 160)).data.count == 160)
    }

    @Test func accessControlIsEnforced() throws {
        var files = ChipFiles()
        files.com = hex("60145F0104303130365F36063034303030305C026175")
        files.cardAccess = hex("3100")
        let chip = SimulatedChip(files: files)
        _ = try Self.send(chip, Self.select(0x011C))
        #expect(try Self.send(chip, Self.read(offset: 0, length: 2)).statusWord == .success)
        _ = try Self.send(chip, Self.selectApplication)
        _ = try Self.send(chip, Self.select(0x011E))
        #expect(try Self.send(chip, Self.read(offset: 0, length: 2)).statusWord == .securityStatusNotSatisfied)
        // No key: no DG1 and none configured.
        _ = try Self.send(chip, CommandAPDU(ins: 0x84, p1: 0, p2: 0, expectedLength: 8))
        #expect(
            try Self.send(
                chip, CommandAPDU(ins: 0x82, p1: 0, p2: 0, data: Array(repeating: 0, count: 40), expectedLength: 40)
            )
            .statusWord == .referenceDataNotUsable)
    }

    @Test func protectedDataGroupsAreDenied() throws {
        let chip = Self.openChip()
        _ = try Self.send(chip, Self.selectApplication)
        #expect(try Self.send(chip, Self.select(0x0103)).statusWord == .success)
        #expect(try Self.send(chip, Self.read(offset: 0, length: 2)).statusWord == .securityStatusNotSatisfied)
    }

    @Test func answerToResetAnnouncesExtendedLength() {
        let atr = Self.openChip().answerToReset
        #expect(atr.dropFirst().reduce(0, ^) == 0)  // TCK makes the XOR of T0…TCK zero
        #expect(atr.contains(0x40))
        #expect(!Self.openChip(extended: false).answerToReset.suffix(2).contains(0x40))
    }

    @Test func linkModelAccountsTime() throws {
        var files = ChipFiles()
        files.cardAccess = [0x31, 0x00]
        let link = LinkModel(bitsPerSecond: 106_000, latencyPerExchange: .milliseconds(5))
        let chip = SimulatedChip(configuration: ChipConfiguration(files: files, link: link))
        _ = try Self.send(chip, Self.select(0x011C))
        _ = try Self.send(chip, Self.read(offset: 0, length: 2))
        let statistics = chip.statistics
        #expect(statistics.exchanges == 2)
        // SELECT: 7 + 2 bytes, READ: 5 + 2 + 2 bytes.
        #expect(statistics.bytes == 18)
        #expect(statistics.linkTime == link.duration(bytes: 9) + link.duration(bytes: 9))
        #expect(link.duration(bytes: 106_000 / 8) == .seconds(1) + .milliseconds(5))
    }

    @Test func dumpDirectoryRoundTrip() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chip-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var files = ChipFiles()
        files.com = [0x60, 0x00]
        files[dataGroup: 14] = [0x6E, 0x00]
        files.cardAccess = [0x31, 0x00]
        try files.write(to: directory)
        #expect(
            Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
                == ["COM.bin", "DG14.bin", "CardAccess.bin"])
        #expect(try ChipFiles(directory: directory) == files)
        #expect(throws: ChipSimulatorError.self) {
            try ChipFiles(directory: directory.appendingPathComponent("absent"))
        }
    }

    @Test func keyFromDataGroup1() throws {
        var files = ChipFiles()
        let mrz = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<L898902C<3UTO6908061F9406236ZE184226B<<<<<14"
        files[dataGroup: 1] = [0x61, 0x5B, 0x5F, 0x1F, 0x58] + Array(mrz.utf8)
        #expect(SimulatedChip.machineReadableZone(files[dataGroup: 1] ?? []) == mrz)
    }
}
