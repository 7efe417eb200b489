import Testing
import Transport

@testable import ChipSimulator

/// Which faults strike which command, decided apart from the chip that acts on it.
@Suite struct FaultInjectorTests {
    static let readOfCOM = ChipFileSystem.Read(file: 0x011E, offset: 0)
    static let laterReadOfCOM = ChipFileSystem.Read(file: 0x011E, offset: 4)

    @Test func plainCommandsMeetOnlyLostTagsBareStatusWordsAndSlowAnswers() {
        let injector = FaultInjector(faults: [
            .dropSession(.always), .wrongResponseMAC(.always), .slowAnswer(.milliseconds(3), .always),
        ])
        let plain = injector.decide(secureCommandNumber: nil, reading: nil)
        #expect(plain.outcome == nil && !plain.corruptsResponseMAC && plain.delay == .milliseconds(3))
        let protected = injector.decide(secureCommandNumber: 1, reading: nil)
        #expect(protected.outcome == .dropSession)
    }

    @Test func theFirstFaultThatEndsTheExchangeWins() {
        let injector = FaultInjector(faults: [
            .wrongResponseMAC(.secureCommand(2)), .slowAnswer(.milliseconds(5), .readOf(0x011E)),
            .bareStatusWord(0x6A82, .readPastHeaderOf(0x011E)), .tagLost(.readOf(0x011E)),
        ])
        let first = injector.decide(secureCommandNumber: 2, reading: Self.readOfCOM)
        #expect(first.outcome == .tagLost)
        let later = injector.decide(secureCommandNumber: 3, reading: Self.laterReadOfCOM)
        #expect(later.outcome == .bareStatusWord(StatusWord(0x6A82)))
        let other = injector.decide(secureCommandNumber: 2, reading: ChipFileSystem.Read(file: 0x0101, offset: 9))
        #expect(other.outcome == nil && other.corruptsResponseMAC && other.delay == .zero)
    }

    @Test func readLimitsAndStatusWordObject() {
        #expect(FaultInjector(faults: []).readLengthLimit == nil)
        #expect(!FaultInjector(faults: []).omitsStatusWordObject)
        let injector = FaultInjector(faults: [.wrongLengthAbove(200), .omitStatusWordObject, .wrongLengthAbove(160)])
        #expect(injector.readLengthLimit == 160 && injector.omitsStatusWordObject)
    }
}
