import CryptoPrimitives
import ICAO
import Secrets
import SecureMessaging
import TestSupport
import Testing
import Transport

@testable import ChipSimulator

/// Answers INS 88 with how many commands it has answered since its last reset, then the data it
/// was given: its state is its own, and a reset (session end, power cycle) clears it.
private struct CountingEchoHandler: ProtocolHandler {
    var answered = 0
    var instructions: Set<UInt8> { [0x88] }

    mutating func handle(_ command: CommandAPDU, context: ProtocolContext) -> ProtocolOutcome {
        answered += 1
        return ProtocolOutcome(ResponseAPDU(data: [UInt8(answered)] + command.data, statusWord: .success))
    }

    mutating func reset() { answered = 0 }
}

/// Stands in for PACE and Chip Authentication: a plain INS 86 opens an AES-128 session and the
/// files (as PACE does), INS 22 under secure messaging replaces the keys with AES-256 ones (as
/// Chip Authentication does).
private struct KeyingHandler: ProtocolHandler {
    let first: SessionKeys
    let second: SessionKeys
    var instructions: Set<UInt8> { [0x86, 0x22] }

    mutating func handle(_ command: CommandAPDU, context: ProtocolContext) -> ProtocolOutcome {
        switch command.ins {
        case 0x86:
            guard context.secureMessaging == nil, let session = ChipSession(keys: first) else {
                return ProtocolOutcome(.conditionsNotSatisfied)
            }
            return ProtocolOutcome(ResponseAPDU(statusWord: .success), session: .establish(session), grantsAccess: true)
        default:
            guard context.secureMessaging == .aes128 else { return ProtocolOutcome(.conditionsNotSatisfied) }
            return ProtocolOutcome(ResponseAPDU(statusWord: .success), session: .replaceKeys(second))
        }
    }

    mutating func reset() {}
}

/// Reads the chaining bit itself (as PACE's GENERAL AUTHENTICATE will): INS 87 answers every part,
/// first byte 1 for a chained part, 0 for the last.
private struct ChainAwareHandler: ProtocolHandler {
    var instructions: Set<UInt8> { [0x87] }
    var interpretsChaining: Bool { true }

    mutating func handle(_ command: CommandAPDU, context: ProtocolContext) -> ProtocolOutcome {
        ProtocolOutcome(ResponseAPDU(data: [context.isChained ? 1 : 0] + command.data, statusWord: .success))
    }

    mutating func reset() {}
}

@Suite struct ProtocolHandlerTests {
    static let efCom = hex("60145F0104303130365F36063034303030305C026175")
    static let first = ChipSessionTests.keys(.aes128, secret: 0x01)
    static let second = ChipSessionTests.keys(.aes256, secret: 0x02)

    static func chip(enforcesAccessControl: Bool = true) -> SimulatedChip {
        var files = ChipFiles()
        files.com = efCom
        return SimulatedChip(
            configuration: ChipConfiguration(files: files, enforcesAccessControl: enforcesAccessControl),
            extraHandlers: [
                CountingEchoHandler(), KeyingHandler(first: first, second: second), ChainAwareHandler(),
            ],
            random: .system)
    }

    static func send(_ chip: SimulatedChip, _ command: CommandAPDU) throws -> ResponseAPDU {
        try chip.transmit(command)
    }

    static func sendProtected(
        _ chip: SimulatedChip, _ command: CommandAPDU, _ session: inout SecureMessagingSession
    ) throws -> ResponseAPDU {
        try session.unwrap(try chip.transmit(try session.wrap(command)))
    }

    static let selectApplication = CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: ApplicationIdentifier.emrtd)
    static let selectCOM = CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01, 0x1E])
    static let readCOM = CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 256)
    static func echo(_ data: [UInt8], chained: Bool = false) -> CommandAPDU {
        CommandAPDU(cla: chained ? 0x10 : 0x00, ins: 0x88, p1: 0, p2: 0, data: data, expectedLength: 256)
    }

    /// Opens the AES-128 session through the stand-in handler and returns the reader's side of it.
    static func openSession(_ chip: SimulatedChip) throws -> SecureMessagingSession {
        #expect(try send(chip, selectApplication).statusWord == .success)
        #expect(try send(chip, CommandAPDU(ins: 0x86, p1: 0, p2: 0)).statusWord == .success)
        return try ChipSessionTests.readerSession(first)
    }

    @Test func handlersAnswerTheirInstructionsWithTheirOwnState() throws {
        let chip = Self.chip(enforcesAccessControl: false)
        #expect(try Self.send(chip, Self.echo([0xAB])) == ResponseAPDU(data: [1, 0xAB], statusWord: .success))
        #expect(try Self.send(chip, Self.echo([])) == ResponseAPDU(data: [2], statusWord: .success))
        // The file system and BAC are still there beside it; unknown instructions are refused.
        #expect(try Self.send(chip, Self.selectApplication).statusWord == .success)
        #expect(try Self.send(chip, CommandAPDU(ins: 0x84, p1: 0, p2: 0, expectedLength: 8)).data.count == 8)
        #expect(try Self.send(chip, CommandAPDU(ins: 0xCA, p1: 0, p2: 0)).statusWord == .instructionNotSupported)
        #expect(try Self.send(chip, Self.echo([])).data == [3])
        chip.reset()
        #expect(try Self.send(chip, Self.echo([])).data == [1])
    }

    @Test func aHandlerOpensTheSessionAndTheFiles() throws {
        let chip = Self.chip()
        #expect(try Self.send(chip, Self.selectApplication).statusWord == .success)
        #expect(try Self.send(chip, Self.selectCOM).statusWord == .success)
        #expect(try Self.send(chip, Self.readCOM).statusWord == .securityStatusNotSatisfied)
        var session = try Self.openSession(chip)
        #expect(try Self.sendProtected(chip, Self.selectCOM, &session).statusWord == .success)
        #expect(try Self.sendProtected(chip, Self.readCOM, &session).data == Self.efCom)
        #expect(session.sendSequenceCounter == [UInt8](repeating: 0, count: 15) + [4])
    }

    @Test func sessionReplacedInPlace() throws {
        let chip = Self.chip()
        var old = try Self.openSession(chip)
        #expect(try Self.sendProtected(chip, Self.selectCOM, &old).statusWord == .success)
        // The replacing command is answered under the old keys…
        let replace = CommandAPDU(ins: 0x22, p1: 0x41, p2: 0xA4, data: hex("800A04007F00070202030204"))
        #expect(try Self.sendProtected(chip, replace, &old).statusWord == .success)
        // …and the next one goes under the new keys and cipher, the counter starting at zero.
        var new = try ChipSessionTests.readerSession(Self.second)
        #expect(try Self.sendProtected(chip, Self.readCOM, &new).data == Self.efCom)
        #expect(new.sendSequenceCounter == [UInt8](repeating: 0, count: 15) + [2])
        // The access rights survived the change of keys; the old keys are refused and end the session.
        let stale = try chip.transmit(try old.wrap(Self.readCOM))
        #expect(stale == ResponseAPDU(statusWord: .secureMessagingDataObjectsIncorrect))
        #expect(try chip.transmit(try new.wrap(Self.readCOM)).statusWord == .secureMessagingDataObjectsIncorrect)
    }

    @Test func chainedPartsAreJoined() throws {
        let chip = Self.chip(enforcesAccessControl: false)
        #expect(try Self.send(chip, Self.echo([1, 2], chained: true)) == ResponseAPDU(statusWord: .success))
        #expect(try Self.send(chip, Self.echo([3], chained: true)) == ResponseAPDU(statusWord: .success))
        // The handler sees one command: its first answer, with the whole data.
        #expect(try Self.send(chip, Self.echo([4])).data == [1, 1, 2, 3, 4])
        // Another instruction in the middle of a chain breaks it: 6883, and the parts are gone.
        #expect(try Self.send(chip, Self.echo([5], chained: true)).statusWord == .success)
        #expect(try Self.send(chip, Self.selectApplication).statusWord == StatusWord(0x6883))
        #expect(try Self.send(chip, Self.echo([6])).data == [2, 6])
        // Chained SELECT: the file identifier in two parts.
        #expect(try Self.send(chip, Self.selectApplication).statusWord == .success)
        let firstHalf = CommandAPDU(cla: 0x10, ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01])
        #expect(try Self.send(chip, firstHalf).statusWord == .success)
        #expect(try Self.send(chip, CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x1E])).statusWord == .success)
        #expect(try Self.send(chip, Self.readCOM).data == Self.efCom)
    }

    @Test func chainedPartsUnderSecureMessaging() throws {
        let chip = Self.chip()
        var session = try Self.openSession(chip)
        // Each part is protected on its own and its 9000 comes back protected.
        #expect(try Self.sendProtected(chip, Self.echo([1, 2], chained: true), &session).statusWord == .success)
        let last = try chip.transmit(try session.wrap(Self.echo([3])))
        #expect(last.data.first == 0x87)  // the joined answer is encrypted
        #expect(try session.unwrap(last).data == [1, 1, 2, 3])
    }

    @Test func handlersThatReadTheChainingBitGetEveryPart() throws {
        let chip = Self.chip(enforcesAccessControl: false)
        let part = CommandAPDU(cla: 0x10, ins: 0x87, p1: 0, p2: 0, data: [7], expectedLength: 256)
        #expect(try Self.send(chip, part).data == [1, 7])
        #expect(
            try Self.send(chip, CommandAPDU(ins: 0x87, p1: 0, p2: 0, data: [8], expectedLength: 256)).data == [0, 8])
    }

    @Test func classesBeyondInterindustryAreRefused() throws {
        let chip = Self.chip(enforcesAccessControl: false)
        for cla: UInt8 in [0x01, 0x03, 0x20, 0x80, 0x90] {
            var command = Self.echo([1])
            command.cla = cla
            #expect(try Self.send(chip, command).statusWord == .classNotSupported, "CLA \(cla)")
        }
    }

    /// Commands of every shape, plain and protected, malformed on purpose: each gets a status
    /// word (a lost tag is the only thrown error, and no fault is configured here).
    @Test func malformedCommandsGetStatusWords() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        let classes: [UInt8] = [0x00, 0x0C, 0x10, 0x1C, 0x04, 0x80, 0xFF]
        let instructions: [UInt8] = [0xA4, 0xB0, 0xB1, 0x84, 0x82, 0x88, 0x86, 0x87, 0x22, 0x00, 0xFF]
        var chip = Self.chip()
        for round in 0..<3000 {
            if round % 50 == 0 { chip = Self.chip(enforcesAccessControl: round % 100 == 0) }
            // Now and then a session is open, so protected commands meet one.
            if round % 7 == 0 { _ = try Self.send(chip, CommandAPDU(ins: 0x86, p1: 0, p2: 0)) }
            let length = Int(next() % 48)
            let data = (0..<length).map { _ in UInt8(truncatingIfNeeded: next()) }
            let command = CommandAPDU(
                cla: classes[Int(next() % UInt64(classes.count))],
                ins: instructions[Int(next() % UInt64(instructions.count))],
                p1: UInt8(truncatingIfNeeded: next()), p2: UInt8(truncatingIfNeeded: next()),
                data: data, expectedLength: next() % 3 == 0 ? nil : Int(next() % 65536) + 1)
            let response = try Self.send(chip, command)
            #expect(response.statusWord.sw1 >= 0x61, "\(command)")
        }
    }
}
