import LDS
import SecureMessaging
import Synchronization
import Testing
import Transport

@testable import AccessControl

/// The file reader against scripted chips, SELECT then header first (the ladder and the status
/// words): every command it sends is asserted, in order.
@Suite struct FileReaderTests {
    @Test func readsTheHeaderThenExactlyTheDeclaredLength() throws {
        let com = tlvFile(tag: 0x60, valueLength: 22)
        let transport = ScriptedTransport([
            exchange(select(0x011E), ok()),
            exchange(readBinary(0, 4), ok(Array(com[0..<4]))),
            exchange(readBinary(4, 20), ok(Array(com[4...]))),
        ])
        var reader = FileReader(channel: PlainChannel(transport), strategy: .selectThenHeader)
        #expect(reader.read(.com) == .read(com))
        #expect(transport.isComplete, "\(transport.failures)")
    }

    @Test func stepsDownTheLadderOn6700AndRemembersTheStep() throws {
        let dg2 = tlvFile(tag: 0x75, valueLength: 596)  // 600 bytes
        let dg11 = tlvFile(tag: 0x6B, valueLength: 296)  // 300 bytes
        let transport = ScriptedTransport([
            exchange(select(0x0102), ok()),
            exchange(readBinary(0, 4), ok(Array(dg2[0..<4]))),
            exchange(readBinary(4, 255), status(0x6700)),
            exchange(readBinary(4, 223), status(0x6700)),
            exchange(readBinary(4, 192), ok(Array(dg2[4..<196]))),
            exchange(readBinary(196, 192), ok(Array(dg2[196..<388]))),
            exchange(readBinary(388, 192), ok(Array(dg2[388..<580]))),
            exchange(readBinary(580, 20), ok(Array(dg2[580...]))),
            // The next file starts at the remembered step.
            exchange(select(0x010B), ok()),
            exchange(readBinary(0, 4), ok(Array(dg11[0..<4]))),
            exchange(readBinary(4, 192), ok(Array(dg11[4..<196]))),
            exchange(readBinary(196, 104), ok(Array(dg11[196...]))),
        ])
        var reader = FileReader(channel: PlainChannel(transport), strategy: .selectThenHeader)
        #expect(reader.read(.dg2) == .read(dg2))
        #expect(reader.expectedLength == 192)
        #expect(reader.read(.dg11) == .read(dg11))
        #expect(transport.isComplete, "\(transport.failures)")
    }

    @Test func aShortAnswerShowsTheChipsLimit() throws {
        let file = tlvFile(tag: 0x6B, valueLength: 496)  // 500 bytes
        let transport = ScriptedTransport([
            exchange(select(0x010B), ok()),
            exchange(readBinary(0, 4), ok(Array(file[0..<4]))),
            exchange(readBinary(4, 255), ok(Array(file[4..<235]))),  // 231 of 255
            exchange(readBinary(235, 223), ok(Array(file[235..<458]))),
            exchange(readBinary(458, 42), ok(Array(file[458...]))),
        ])
        var reader = FileReader(channel: PlainChannel(transport), strategy: .selectThenHeader)
        #expect(reader.read(.dg11) == .read(file))
        #expect(reader.expectedLength == 223)
        #expect(transport.isComplete, "\(transport.failures)")
    }

    @Test func honours6CxxAndRemembersTheLength() throws {
        let file = tlvFile(tag: 0x6C, valueLength: 396)  // 400 bytes
        let transport = ScriptedTransport([
            exchange(select(0x010C), ok()),
            exchange(readBinary(0, 4), ok(Array(file[0..<4]))),
            exchange(readBinary(4, 255), status(0x6CC8)),
            exchange(readBinary(4, 200), ok(Array(file[4..<204]))),
            exchange(readBinary(204, 196), ok(Array(file[204...]))),
        ])
        var reader = FileReader(channel: PlainChannel(transport), strategy: .selectThenHeader)
        #expect(reader.read(.dg12) == .read(file))
        #expect(reader.expectedLength == 200)
        #expect(transport.isComplete, "\(transport.failures)")
    }

    @Test func accepts6282WithData() throws {
        let tiny: [UInt8] = [0x6F, 0x02, 0xAA, 0xBB]
        let file = tlvFile(tag: 0x6D, valueLength: 30)
        let transport = ScriptedTransport([
            exchange(select(0x010F), ok()),
            exchange(readBinary(0, 4), status(0x6282, tiny)),
            exchange(select(0x010D), ok()),
            exchange(readBinary(0, 4), ok(Array(file[0..<4]))),
            exchange(readBinary(4, 28), status(0x6282, Array(file[4...]))),
        ])
        var reader = FileReader(channel: PlainChannel(transport), strategy: .selectThenHeader)
        #expect(reader.read(.dg15) == .read(tiny))
        #expect(reader.read(.dg13) == .read(file))
        #expect(transport.isComplete, "\(transport.failures)")
    }

    /// A file of indefinite length ends where its outer TLV does: once the end-of-contents is
    /// read, nothing past it is asked for.
    @Test func anIndefiniteLengthEndsAtItsEndOfContents() throws {
        let sod: [UInt8] = [0x77, 0x80, 0x04, 0x81, 0x96] + (0..<150).map { UInt8($0) } + [0x00, 0x00]
        let transport = ScriptedTransport([
            exchange(select(0x011D), ok()),
            exchange(readBinary(0, 4), ok(Array(sod[0..<4]))),
            exchange(readBinary(4, 255), status(0x6282, Array(sod[4...]))),
        ])
        var reader = FileReader(channel: PlainChannel(transport), strategy: .selectThenHeader)
        #expect(reader.read(.sod) == .read(sod))
        #expect(transport.isComplete, "\(transport.failures)")
    }

    /// A chip answering 6B00 to a read passing the end, on a file of indefinite length: the
    /// reader asks for less until the end-of-contents comes (a handful of APDUs more), or, when
    /// the file never completes its outer TLV, until one byte past its data is refused.
    @Test(arguments: [true, false])
    func anIndefiniteLengthOnAChipRefusingReadsPastTheEnd(wellFormed: Bool) throws {
        // An OCTET STRING of 300 bytes, or one declaring more than the file holds.
        let body: [UInt8] =
            [0x04, 0x82] + (wellFormed ? [0x01, 0x2C] : [0xFF, 0xFF]) + (0..<300).map { UInt8($0 & 0xFF) }
        let sod: [UInt8] = [0x77, 0x80] + body + [0x00, 0x00]
        let chip = PastEndRefusingChip(sod)
        var reader = FileReader(channel: PlainChannel(chip), strategy: .selectThenHeader)
        #expect(reader.read(.sod) == .read(sod))
        // The header, one full answer, then a search of the end: about twice log2(255) reads.
        #expect(chip.reads <= 20, "\(chip.reads) READ BINARY")
    }

    @Test func theEndBeforeTheDeclaredLengthIsTruncation() throws {
        let file = tlvFile(tag: 0x61, valueLength: 91)
        let transport = ScriptedTransport([
            exchange(select(0x0101), ok()),
            exchange(readBinary(0, 4), ok(Array(file[0..<4]))),
            exchange(readBinary(4, 89), ok(Array(file[4..<50]))),
            exchange(readBinary(50, 43), status(0x6B00)),
        ])
        var reader = FileReader(channel: PlainChannel(transport), strategy: .selectThenHeader)
        guard case .failed(let error) = reader.read(.dg1) else {
            Issue.record("a file ending early is read")
            return
        }
        #expect(error.code == .truncated)
        #expect(error.bytesRead == Array(file[0..<50]))
        #expect(transport.isComplete, "\(transport.failures)")
    }

    /// The outcome the read takes, from the reader itself: the chip's answers and a lost card
    /// alike, the link's failure typed as the transport's.
    @Test func theOutcomeOfAReadIsTheReadersOwn() throws {
        let dg1 = tlvFile(tag: 0x61, valueLength: 6)
        let transport = ScriptedTransport([
            exchange(select(0x0101), ok()),
            exchange(readBinary(0, 4), ok(Array(dg1[0..<4]))),
            exchange(readBinary(4, 4), ok(Array(dg1[4...]))),
            exchange(select(0x010F), status(0x6A82)),
            exchange(select(0x0103), status(0x6982)),
            exchange(select(0x0105), ok()),
            exchange(readBinary(0, 4), status(0x6F00)),
            .failure("00A4020C02010B", .TagLost),
        ])
        var reader = FileReader(channel: PlainChannel(transport), strategy: .selectThenHeader)
        #expect(reader.read(.dg1) == .read(dg1))
        #expect(reader.read(.dg15) == .absent)
        #expect(reader.read(.dg3) == .denied)
        guard case .failed(let error) = reader.read(.dg5) else {
            Issue.record("6F00 is not a failed read")
            return
        }
        #expect(error.code == .unexpectedStatus && error.reason.contains("6F00") && error.channelError == nil)
        guard case .failed(let lost) = reader.read(.dg11) else {
            Issue.record("a lost card is not a failed read")
            return
        }
        #expect(lost.code == .transport && lost.channelError == .transport(.TagLost))
        #expect(transport.isComplete, "\(transport.failures)")
    }

    @Test func bareStatusWordsBecomeTypedErrors() throws {
        let transport = ScriptedTransport([
            exchange(select(0x010F), status(0x6A82)),
            exchange(select(0x0103), ok()),
            exchange(readBinary(0, 4), status(0x6982)),
            exchange(select(0x0104), status(0x6982)),
            exchange(select(0x0105), ok()),
            exchange(readBinary(0, 4), status(0x6F00)),
            exchange(select(0x0106), ok()),
            exchange(readBinary(0, 4), status(0x6B00)),
        ])
        var reader = FileReader(channel: PlainChannel(transport), strategy: .selectThenHeader)
        #expect(reader.read(.dg15) == .absent)
        #expect(reader.read(.dg3) == .denied)
        #expect(reader.read(.dg4) == .denied)
        for (file, code) in [(LDSFileKind.dg5, FileReadError.Code.unexpectedStatus), (.dg6, .empty)] {
            guard case .failed(let error) = reader.read(file) else {
                Issue.record("\(file) is read")
                continue
            }
            #expect(error.code == code)
            #expect(error.file == file)
        }
        #expect(transport.isComplete, "\(transport.failures)")
    }

    @Test func declaredLengthsAreCappedBeforeReading() throws {
        let transport = ScriptedTransport([
            exchange(select(0x0101), ok()),
            exchange(readBinary(0, 4), ok([0x61, 0x83, 0x01, 0x11])),
            exchange(readBinary(4, 4), ok([0x70, 0x00, 0x00, 0x00])),
            exchange(select(0x0102), ok()),
            exchange(readBinary(0, 4), ok([0x75, 0x84, 0x7F, 0xFF])),
            exchange(readBinary(4, 4), ok([0xFF, 0xFF, 0x00, 0x00])),
        ])
        var reader = FileReader(channel: PlainChannel(transport), strategy: .selectThenHeader)
        for file in [LDSFileKind.dg1, .dg2] {
            #expect(reader.read(file).failure?.code == .tooLarge)
        }
        #expect(transport.isComplete, "\(transport.failures)")
    }

    @Test func malformedHeadersAreRejected() throws {
        let transport = ScriptedTransport([
            exchange(select(0x0101), ok()),
            exchange(readBinary(0, 4), ok([0x00, 0x00, 0x00, 0x00])),
            exchange(select(0x0102), ok()),
            exchange(readBinary(0, 4), ok([0x75, 0x85, 0x00, 0x00])),
        ])
        var reader = FileReader(channel: PlainChannel(transport), strategy: .selectThenHeader)
        for file in [LDSFileKind.dg1, .dg2] {
            #expect(reader.read(file).failure?.code == .malformed)
        }
    }

    @Test func offsetsAbove32767UseOddInstructionB1() throws {
        let size = 32768 + 3000
        let file = tlvFile(tag: 0x75, valueLength: size - 4)
        let transport = ScriptedTransport(
            [
                exchange(select(0x0102), ok()),
                exchange(readBinary(0, 4), ok(Array(file[0..<4]))),
                // Extended length: the first step asks for everything left; the chip sends up to 32768.
                exchange(readBinary(4, size - 4), ok(Array(file[4..<32768]))),
                exchange(
                    CommandAPDU(ins: 0xB1, p1: 0, p2: 0, data: [0x54, 0x03, 0x00, 0x80, 0x00], expectedLength: 3004),
                    ok([0x53, 0x82, 0x0B, 0xB8] + Array(file[32768...]))),
            ], supportsExtendedLength: true)
        var reader = FileReader(channel: PlainChannel(transport), strategy: .selectThenHeader)
        #expect(reader.read(.dg2) == .read(file))
        #expect(reader.expectedLength == 4096)
        #expect(transport.isComplete, "\(transport.failures)")
    }
}

/// The file reader over secure messaging: the chip side of each exchange is scripted.
@Suite struct SecureFileReaderTests {
    @Test func readsWithoutProcessingStatusAndThroughBareErrors() throws {
        let chip = ChipSide(try AppendixD.session())
        let dg1 = tlvFile(tag: 0x61, valueLength: 91)
        let transport = ScriptedTransport([
            chip.step(select(0x010F), status(0x6A82), .bare),
            chip.step(select(0x0101), ok(), .withoutProcessingStatus),
            chip.step(readBinary(0, 4), ok(Array(dg1[0..<4])), .withoutProcessingStatus),
            chip.step(readBinary(4, 89), ok(Array(dg1[4...])), .withoutProcessingStatus),
        ])
        var reader = FileReader(
            channel: SecureChannel(base: transport, session: try AppendixD.session()), strategy: .selectThenHeader)
        #expect(reader.read(.dg15) == .absent)
        #expect(reader.read(.dg1) == .read(dg1))
        #expect(transport.isComplete, "\(transport.failures)")
    }

    @Test func a6282WithoutMACIsAskedAgainForLess() throws {
        // The ePass answers 6282 with DO'87' but no DO'8E': secure messaging drops that data, and the
        // reader asks again for fewer bytes until an authenticated answer comes.
        let chip = ChipSide(try AppendixD.session())
        let tiny: [UInt8] = [0x6F, 0x02, 0xAA, 0xBB]
        let transport = ScriptedTransport([
            chip.step(select(0x010F), ok()),
            chip.step(readBinary(0, 4), status(0x6282, tiny), .withoutMAC),
            chip.step(readBinary(0, 2), ok(Array(tiny[0..<2]))),
            chip.step(readBinary(2, 2), ok(Array(tiny[2...]))),
        ])
        var reader = FileReader(
            channel: SecureChannel(base: transport, session: try AppendixD.session()), strategy: .selectThenHeader)
        #expect(reader.read(.dg15) == .read(tiny))
        #expect(transport.isComplete, "\(transport.failures)")
    }

    @Test func aWrongResponseMACFailsTheReadAndReturnsNothing() throws {
        let chip = ChipSide(try AppendixD.session())
        let dg1 = tlvFile(tag: 0x61, valueLength: 91)
        let transport = ScriptedTransport([
            chip.step(select(0x0101), ok()),
            chip.step(readBinary(0, 4), ok(Array(dg1[0..<4]))),
            chip.step(readBinary(4, 89), ok(Array(dg1[4...])), .corruptMAC),
        ])
        let channel = SecureChannel(base: transport, session: try AppendixD.session())
        var reader = FileReader(channel: channel, strategy: .selectThenHeader)
        guard case .failed(let error) = reader.read(.dg1) else {
            Issue.record("a wrong MAC is read")
            return
        }
        #expect(error.code == .secureMessaging)
        #expect(error.channelError?.secureMessagingError?.code == .macInvalid)
        // The header came under good MACs; nothing of the refused answer is kept.
        #expect(error.bytesRead == Array(dg1[0..<4]))
        #expect(channel.failure != nil)
        // The broken session refuses everything after, without sending.
        guard case .failed(let after) = reader.read(.com) else {
            Issue.record("a broken session reads")
            return
        }
        #expect(after.channelError?.secureMessagingError?.code == .sessionBroken)
        #expect(transport.isComplete, "\(transport.failures)")
    }
}

/// The fewest commands: short EF identifiers, the whole file in the first answer, and the
/// fallbacks for chips that refuse either, remembered for the session.
@Suite struct FewestCommandsTests {
    func readBySFI(_ file: LDSFileKind, _ length: Int) -> CommandAPDU {
        CommandAPDU(ins: 0xB0, p1: 0x80 | file.shortFileIdentifier, p2: 0, expectedLength: length)
    }

    /// A 6Cxx to a whole first read: the named length at once (no header read), kept for the rest
    /// of the file and the next files, so each file costs at most one APDU over the plain read.
    @Test func a6CxxToTheFirstReadIsAskedAtOnceAndKept() throws {
        let dg11 = tlvFile(tag: 0x6B, valueLength: 396)  // 400 bytes
        let dg12 = tlvFile(tag: 0x6C, valueLength: 296)  // 300 bytes
        let transport = ScriptedTransport([
            exchange(readBySFI(.dg11, 255), status(0x6CC0)),
            exchange(readBySFI(.dg11, 192), ok(Array(dg11[0..<192]))),
            exchange(readBinary(192, 192), ok(Array(dg11[192..<384]))),
            exchange(readBinary(384, 16), ok(Array(dg11[384...]))),
            exchange(readBySFI(.dg12, 192), ok(Array(dg12[0..<192]))),
            exchange(readBinary(192, 108), ok(Array(dg12[192...]))),
        ])
        var reader = FileReader(channel: PlainChannel(transport))
        #expect(reader.read(.dg11) == .read(dg11))
        #expect(reader.expectedLength == 192)
        #expect(reader.read(.dg12) == .read(dg12))
        #expect(reader.strategy == .fewestCommands)
        #expect(transport.isComplete, "\(transport.failures)")
    }

    /// A 6Cxx naming exactly what a short file holds told what was left, not the chip's limit:
    /// the Le stays, and the next file is read whole.
    @Test func a6CxxNamingAShortFilesSizeIsNotKept() throws {
        let com = tlvFile(tag: 0x60, valueLength: 22)  // 24 bytes
        let dg11 = tlvFile(tag: 0x6B, valueLength: 196)  // 200 bytes
        let transport = ScriptedTransport([
            exchange(readBySFI(.com, 255), status(0x6C18)),
            exchange(readBySFI(.com, 24), ok(com)),
            exchange(readBySFI(.dg11, 255), ok(dg11)),
        ])
        var reader = FileReader(channel: PlainChannel(transport))
        #expect(reader.read(.com) == .read(com))
        #expect(reader.read(.dg11) == .read(dg11))
        #expect(reader.expectedLength == 255)
        #expect(transport.isComplete, "\(transport.failures)")
    }

    /// A 6Cxx smaller than the header read (a chip serving one byte at a time): each byte once, the
    /// length kept from the first answer on.
    @Test func a6CxxOfOneByteIsKeptFromTheHeaderOn() throws {
        let com = tlvFile(tag: 0x60, valueLength: 3)  // 5 bytes
        var steps = [exchange(readBySFI(.com, 255), status(0x6C01)), exchange(readBySFI(.com, 1), ok([com[0]]))]
        for offset in 1..<com.count { steps.append(exchange(readBinary(offset, 1), ok([com[offset]]))) }
        let transport = ScriptedTransport(steps)
        var reader = FileReader(channel: PlainChannel(transport))
        #expect(reader.read(.com) == .read(com))
        #expect(reader.expectedLength == 1)
        #expect(transport.isComplete, "\(transport.failures)")
    }

    @Test func oneReadBinaryPerFileThatFitsAnAnswer() throws {
        let com = tlvFile(tag: 0x60, valueLength: 22)
        let dg11 = tlvFile(tag: 0x6B, valueLength: 496)  // 500 bytes: two answers
        let transport = ScriptedTransport([
            exchange(readBySFI(.com, 255), ok(com)),
            exchange(readBySFI(.dg11, 255), ok(Array(dg11[0..<255]))),
            exchange(readBinary(255, 245), ok(Array(dg11[255...]))),
            // Proven: a 6A82 to a short-identifier read means the file is absent, no SELECT to confirm.
            exchange(readBySFI(.dg15, 255), status(0x6A82)),
        ])
        var reader = FileReader(channel: PlainChannel(transport))
        #expect(reader.read(.com) == .read(com))
        #expect(reader.read(.dg11) == .read(dg11))
        #expect(reader.read(.dg15) == .absent)
        #expect(reader.strategy == .fewestCommands)
        #expect(transport.isComplete, "\(transport.failures)")
    }

    @Test func aChipWithoutShortIdentifiersIsReadWithSELECTFromThenOn() throws {
        let com = tlvFile(tag: 0x60, valueLength: 22)
        let dg1 = tlvFile(tag: 0x61, valueLength: 91)
        let transport = ScriptedTransport([
            exchange(readBySFI(.com, 255), status(0x6A82)),
            exchange(select(0x011E), ok()),
            exchange(readBinary(0, 255), ok(com)),
            exchange(select(0x0101), ok()),
            exchange(readBinary(0, 255), ok(dg1)),
        ])
        var reader = FileReader(channel: PlainChannel(transport))
        #expect(reader.read(.com) == .read(com))
        #expect(reader.read(.dg1) == .read(dg1))
        #expect(reader.strategy == FileReadStrategy(shortFileIdentifiers: false, wholeFirstRead: true))
        #expect(transport.isComplete, "\(transport.failures)")
    }

    @Test func aShortIdentifierTheChipRejectsFallsBackToSELECT() throws {
        let dg1 = tlvFile(tag: 0x61, valueLength: 91)
        let transport = ScriptedTransport([
            // 6B00 to the whole first read may refuse the Le past a short file's end: the header
            // read tells, and its 6B00 is the short identifier's refusal.
            exchange(readBySFI(.dg1, 255), status(0x6B00)),
            exchange(readBySFI(.dg1, 4), status(0x6B00)),
            exchange(select(0x0101), ok()),
            exchange(readBinary(0, 255), ok(dg1)),
        ])
        var reader = FileReader(channel: PlainChannel(transport))
        #expect(reader.read(.dg1) == .read(dg1))
        #expect(reader.strategy == FileReadStrategy(shortFileIdentifiers: false, wholeFirstRead: true))
        #expect(transport.isComplete, "\(transport.failures)")
    }

    /// A chip answering 6B00 to a read whose offset + Le passes the end of the file: the header
    /// first, then exactly the rest, and every later file so.
    @Test func aChipRefusingReadsPastTheEndWith6B00GetsHeadersFirst() throws {
        let com = tlvFile(tag: 0x60, valueLength: 22)
        let dg1 = tlvFile(tag: 0x61, valueLength: 91)
        let transport = ScriptedTransport([
            exchange(readBySFI(.com, 255), status(0x6B00)),
            exchange(readBySFI(.com, 4), ok(Array(com[0..<4]))),
            exchange(readBinary(4, 20), ok(Array(com[4...]))),
            exchange(readBySFI(.dg1, 4), ok(Array(dg1[0..<4]))),
            exchange(readBinary(4, 89), ok(Array(dg1[4...]))),
        ])
        var reader = FileReader(channel: PlainChannel(transport))
        #expect(reader.read(.com) == .read(com))
        #expect(reader.read(.dg1) == .read(dg1))
        #expect(reader.strategy == FileReadStrategy(shortFileIdentifiers: true, wholeFirstRead: false))
        #expect(transport.isComplete, "\(transport.failures)")
    }

    /// A chip answering an Le it cannot serve with 9000 and nothing: the ladder steps down as for
    /// 6700, and the step is kept for the next file.
    @Test func anEmptyAnswerStepsTheLadderDown() throws {
        let dg11 = tlvFile(tag: 0x6B, valueLength: 396)  // 400 bytes
        let dg12 = tlvFile(tag: 0x6C, valueLength: 296)  // 300 bytes
        let transport = ScriptedTransport([
            exchange(readBySFI(.dg11, 255), ok()),
            exchange(readBySFI(.dg11, 4), ok(Array(dg11[0..<4]))),
            exchange(readBinary(4, 223), ok(Array(dg11[4..<227]))),
            exchange(readBinary(227, 173), ok(Array(dg11[227...]))),
            exchange(readBySFI(.dg12, 223), ok(Array(dg12[0..<223]))),
            exchange(readBinary(223, 77), ok(Array(dg12[223...]))),
        ])
        var reader = FileReader(channel: PlainChannel(transport))
        #expect(reader.read(.dg11) == .read(dg11))
        #expect(reader.read(.dg12) == .read(dg12))
        #expect(reader.expectedLength == 223)
        #expect(reader.strategy == .fewestCommands)
        #expect(transport.isComplete, "\(transport.failures)")
    }

    @Test func aChipRefusingReadsPastTheEndGetsHeadersFirst() throws {
        let com = tlvFile(tag: 0x60, valueLength: 22)
        let dg1 = tlvFile(tag: 0x61, valueLength: 91)
        let transport = ScriptedTransport([
            exchange(readBySFI(.com, 255), status(0x6282)),
            exchange(readBySFI(.com, 4), ok(Array(com[0..<4]))),
            exchange(readBinary(4, 20), ok(Array(com[4...]))),
            // Remembered: the next file starts with its header.
            exchange(readBySFI(.dg1, 4), ok(Array(dg1[0..<4]))),
            exchange(readBinary(4, 89), ok(Array(dg1[4...]))),
        ])
        var reader = FileReader(channel: PlainChannel(transport))
        #expect(reader.read(.com) == .read(com))
        #expect(reader.read(.dg1) == .read(dg1))
        #expect(reader.strategy == FileReadStrategy(shortFileIdentifiers: true, wholeFirstRead: false))
        #expect(reader.expectedLength == 255)
        #expect(transport.isComplete, "\(transport.failures)")
    }

    @Test func aLongFileRefusingTheFirstLeStepsTheLadderDown() throws {
        let dg2 = tlvFile(tag: 0x75, valueLength: 596)  // 600 bytes
        let transport = ScriptedTransport([
            exchange(readBySFI(.dg2, 255), status(0x6700)),
            exchange(readBySFI(.dg2, 4), ok(Array(dg2[0..<4]))),
            exchange(readBinary(4, 223), ok(Array(dg2[4..<227]))),
            exchange(readBinary(227, 223), ok(Array(dg2[227..<450]))),
            exchange(readBinary(450, 150), ok(Array(dg2[450...]))),
        ])
        var reader = FileReader(channel: PlainChannel(transport))
        #expect(reader.read(.dg2) == .read(dg2))
        #expect(reader.strategy == .fewestCommands)
        #expect(reader.expectedLength == 223)
        #expect(transport.isComplete, "\(transport.failures)")
    }

    @Test func oddReadsStayShortWithoutExtendedLength() throws {
        // 33,000 bytes on a link without extended length: B0 up to offset 32767, then B1 whose Ne
        // (DO'53' included) is at most 256, never an extended APDU.
        let size = 33_000
        let file = tlvFile(tag: 0x75, valueLength: size - 4)
        var steps: [ScriptedTransport.Step] = [exchange(readBySFI(.dg2, 255), ok(Array(file[0..<255])))]
        var offset = 255
        while offset <= 0x7FFF {
            let count = min(255, size - offset)
            steps.append(exchange(readBinary(offset, count), ok(Array(file[offset..<(offset + count)]))))
            offset += count
        }
        while offset < size {
            let count = min(253, size - offset)
            let offsetBytes: [UInt8] = [0, UInt8(offset >> 8), UInt8(offset & 0xFF)]
            let header: [UInt8] = count < 0x80 ? [0x53, UInt8(count)] : [0x53, 0x81, UInt8(count)]
            steps.append(
                exchange(
                    CommandAPDU(
                        ins: 0xB1, p1: 0, p2: 0, data: [0x54, 0x03] + offsetBytes, expectedLength: count + header.count),
                    ok(header + Array(file[offset..<(offset + count)]))))
            offset += count
        }
        let transport = ScriptedTransport(steps)
        var reader = FileReader(channel: PlainChannel(transport))
        #expect(reader.read(.dg2) == .read(file))
        #expect(transport.isComplete, "\(transport.failures)")
    }

    @Test func shortAnswersUnderSecureMessagingFitTheCipher() throws {
        let channel = SecureChannel(base: ScriptedTransport([]), session: try AppendixD.session())
        #expect(FileReader.shortAnswerCapacity(of: channel, oddInstruction: false) == 231)
        #expect(FileReader.shortAnswerCapacity(of: channel, oddInstruction: true) == 231)
        #expect(FileReader(channel: channel).expectedLength == 231)
        #expect(FileReader.oddDataLength(within: 231) == 228)
        #expect(FileReader.oddDataLength(within: 256) == 253)
        #expect(FileReader.oddDataLength(within: 129) == 127)
        #expect(FileReader.oddDataLength(within: 130) == 127)
    }
}

/// A chip holding one file, answering READ BINARY whose offset + Le passes its end with 6B00.
final class PastEndRefusingChip: APDUTransport {
    let file: [UInt8]
    private let count = Mutex(0)

    init(_ file: [UInt8]) { self.file = file }

    var supportsExtendedLength: Bool { false }
    var reads: Int { count.withLock { $0 } }

    func transmit(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU {
        guard command.ins == 0xB0 else { return ResponseAPDU(statusWord: .success) }
        count.withLock { $0 += 1 }
        let offset = Int(command.p1) << 8 | Int(command.p2)
        let length = command.expectedLength ?? 0
        guard offset + length <= file.count else { return ResponseAPDU(statusWord: .wrongParameters) }
        return ResponseAPDU(data: Array(file[offset..<(offset + length)]), statusWord: .success)
    }
}
