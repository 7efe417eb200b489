import Testing
import Transport

@testable import ChipSimulator

/// Which faults strike which command, decided apart from the chip that acts on it.
@Suite struct FaultInjectorTests {
    static let readOfCOM = ChipFileSystem.Read(file: 0x011E, offset: 0)
    static let laterReadOfCOM = ChipFileSystem.Read(file: 0x011E, offset: 4)
    static let readBinary = CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 4)

    @Test func plainCommandsMeetOnlyLostTagsBareStatusWordsAndSlowAnswers() {
        let injector = FaultInjector(faults: [
            .dropSession(.always), .wrongResponseMAC(.always), .slowAnswer(.milliseconds(3), .always),
        ])
        let plain = injector.decide(secureCommandNumber: nil, command: Self.readBinary, reading: nil)
        #expect(plain.outcome == nil && !plain.corruptsResponseMAC && plain.delay == .milliseconds(3))
        let protected = injector.decide(secureCommandNumber: 1, command: Self.readBinary, reading: nil)
        #expect(protected.outcome == .dropSession)
    }

    @Test func theFirstFaultThatEndsTheExchangeWins() {
        let injector = FaultInjector(faults: [
            .wrongResponseMAC(.secureCommand(2)), .slowAnswer(.milliseconds(5), .readOf(0x011E)),
            .bareStatusWord(0x6A82, .readPastHeaderOf(0x011E)), .tagLost(.readOf(0x011E)),
        ])
        let first = injector.decide(secureCommandNumber: 2, command: Self.readBinary, reading: Self.readOfCOM)
        #expect(first.outcome == .tagLost)
        let later = injector.decide(secureCommandNumber: 3, command: Self.readBinary, reading: Self.laterReadOfCOM)
        #expect(later.outcome == .bareStatusWord(StatusWord(0x6A82)))
        let other = injector.decide(
            secureCommandNumber: 2, command: Self.readBinary, reading: ChipFileSystem.Read(file: 0x0101, offset: 9))
        #expect(other.outcome == nil && other.corruptsResponseMAC && other.delay == .zero)
    }

    @Test func readLimitsAndStatusWordObject() {
        #expect(FaultInjector(faults: []).readLengthLimit == nil)
        #expect(!FaultInjector(faults: []).omitsStatusWordObject)
        let injector = FaultInjector(faults: [.wrongLengthAbove(200), .omitStatusWordObject, .wrongLengthAbove(160)])
        #expect(injector.readLengthLimit == 160 && injector.omitsStatusWordObject)
    }

    /// Instruction triggers strike that INS (and P1 when named), plain or protected; SELECT
    /// triggers the file a SELECT names, the MF in both of its forms.
    @Test func instructionAndSelectTriggers() {
        let injector = FaultInjector(faults: [
            .bareStatusWord(0x6F00, .instruction(0x22, p1: 0x41)), .bareStatusWord(0x6985, .instruction(0x84)),
            .bareStatusWord(0x6A87, .selectOf(0x3F00)), .bareStatusWord(0x6283, .selectOf(0x011C)),
        ])
        let cases: [(CommandAPDU, UInt16?)] = [
            (CommandAPDU(ins: 0x22, p1: 0x41, p2: 0xA4, data: [0x80, 0x00]), 0x6F00),
            (CommandAPDU(ins: 0x22, p1: 0xC1, p2: 0xA4, data: [0x80, 0x00]), nil),
            (CommandAPDU(ins: 0x84, p1: 0, p2: 0, expectedLength: 8), 0x6985),
            (CommandAPDU(ins: 0xA4, p1: 0x00, p2: 0x0C), 0x6A87),
            (CommandAPDU(ins: 0xA4, p1: 0x00, p2: 0x0C, data: [0x3F, 0x00]), 0x6A87),
            (CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01, 0x1C]), 0x6283),
            (CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01, 0x1E]), nil),
            (CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: [0x3F, 0x00]), nil),
        ]
        for (command, status) in cases {
            for number in [nil, 3] {
                let decision = injector.decide(secureCommandNumber: number, command: command, reading: nil)
                #expect(decision.outcome == status.map { .bareStatusWord(StatusWord($0)) }, "\(command)")
            }
        }
    }

    @Test func readAnswerFaults() {
        let none = FaultInjector(faults: [])
        #expect(none.emptyAnswerLimit == nil && !none.refusesReadPastEnd && !none.padsEndOfFile)
        let injector = FaultInjector(faults: [
            .emptyAnswerAbove(200), .refusesReadPastEnd, .paddedEndOfFile, .emptyAnswerAbove(160),
            .refusesLeWithoutAnswer,
        ])
        #expect(injector.emptyAnswerLimit == 160 && injector.refusesReadPastEnd && injector.padsEndOfFile)
        #expect(
            injector.refusesExpectedLength(
                of: CommandAPDU(ins: 0xA4, p1: 2, p2: 0x0C, data: [1, 1], expectedLength: 256)))
        #expect(!injector.refusesExpectedLength(of: CommandAPDU(ins: 0xA4, p1: 2, p2: 0x0C, data: [1, 1])))
        #expect(
            injector.refusesExpectedLength(
                of: CommandAPDU(ins: 0x22, p1: 0xC1, p2: 0xA4, data: [1], expectedLength: 256)))
        #expect(!injector.refusesExpectedLength(of: CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 256)))
        #expect(
            !none.refusesExpectedLength(of: CommandAPDU(ins: 0x22, p1: 0xC1, p2: 0xA4, data: [1], expectedLength: 256)))
    }
}
