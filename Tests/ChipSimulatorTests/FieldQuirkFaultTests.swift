import ASN1
import TestSupport
import Testing
import Transport

@testable import ChipSimulator

/// The real chips' quirks (`FIELD-QUIRKS.md`) as the chip answers them, APDU by APDU, plain
/// (access control off). `endsSessionOnError` needs a session: `FieldQuirksTests` (the
/// integration tests) read through it.
@Suite struct FieldQuirkFaultTests {
    static func chip(_ faults: [ChipFault]) throws -> SimulatedChip {
        let chip = FileSystemTests.openChip(faults: faults)
        _ = try chip.transmit(FileSystemTests.selectApplication)
        _ = try chip.transmit(FileSystemTests.select(0x011E))
        return chip
    }

    /// EF.COM is 22 bytes: a read passing its end is refused with 6B00 (nothing), padded with
    /// `00 00 80` under 6282, or (above the Le limit) answered 9000 with nothing.
    @Test func readAnswers() throws {
        let pastEnd = try Self.chip([.refusesReadPastEnd])
        #expect(
            try pastEnd.transmit(FileSystemTests.read(offset: 0, length: 23))
                == ResponseAPDU(statusWord: .wrongParameters))
        #expect(try pastEnd.transmit(FileSystemTests.read(offset: 20, length: 2)).data == hex("6175"))

        let padded = try Self.chip([.paddedEndOfFile])
        let end = try padded.transmit(FileSystemTests.read(offset: 18, length: 100))
        #expect(end.data == hex("5C026175 000080") && end.statusWord == .endOfFileReached)
        #expect(
            try padded.transmit(FileSystemTests.read(offset: 0, length: 4))
                == ResponseAPDU(data: hex("60145F01"), statusWord: .success))

        let empty = try Self.chip([.emptyAnswerAbove(160)])
        #expect(try empty.transmit(FileSystemTests.read(offset: 0, length: 161)) == ResponseAPDU(statusWord: .success))
        #expect(try empty.transmit(FileSystemTests.read(offset: 0, length: 160)).data.count == 22)
    }

    /// SELECT with P2 0C and MSE:Set carrying an Le get 6700; without one they are answered.
    @Test func anLeOnACommandWithoutAnswerIsRefused() throws {
        let chip = try Self.chip([.refusesLeWithoutAnswer])
        let select = FileSystemTests.select(0x011E)
        let withLe = CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: select.data, expectedLength: 256)
        #expect(try chip.transmit(withLe).statusWord == .wrongLength)
        #expect(try chip.transmit(select).statusWord == .success)
        // A SELECT asking for the FCI (P2 00) may carry Le.
        let fci = CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x00, data: select.data, expectedLength: 256)
        #expect(try chip.transmit(fci).statusWord != .wrongLength)
    }

    /// SELECT faults by file: the MF in both forms, EF.CardAccess, never the application by AID.
    @Test func selectTriggers() throws {
        let chip = FileSystemTests.openChip(faults: [
            .bareStatusWord(0x6A87, .selectOf(0x3F00)), .bareStatusWord(0x6283, .selectOf(0x011C)),
        ])
        #expect(try chip.transmit(CommandAPDU(ins: 0xA4, p1: 0x00, p2: 0x0C)).statusWord == StatusWord(0x6A87))
        let byIdentifier = CommandAPDU(ins: 0xA4, p1: 0x00, p2: 0x0C, data: [0x3F, 0x00])
        #expect(try chip.transmit(byIdentifier).statusWord == StatusWord(0x6A87))
        #expect(try chip.transmit(FileSystemTests.select(0x011C)).statusWord == StatusWord(0x6283))
        #expect(try chip.transmit(FileSystemTests.selectApplication).statusWord == .success)
    }

    /// The cluttered EF.CardAccess holds the offers and four SecurityInfos more.
    @Test func clutteredCardAccess() throws {
        var credentials = Credentials()
        try credentials.offerPACE([try PACEOffer(named: "ECDH-GM-AES-128:13")])
        let plain = try #require(credentials.cardAccessFile())
        let cluttered = try #require(credentials.cardAccessFile(cluttered: true))
        let count = { (file: [UInt8]) in try ASN1Node.parse(file).children.count }
        #expect(try count(plain) == 1 && count(cluttered) == 5)
    }
}
