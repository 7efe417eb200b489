import Transport

/// Decides which of the configured `ChipFault`s strike a command, so the dispatcher only acts on
/// the decision. Faults are looked at in the order configured: the first that ends the exchange
/// (a lost tag, a bare status word, a dropped session) wins; slow answers and wrong MACs before it
/// add up.
struct FaultInjector: Sendable {
    let faults: [ChipFault]

    /// What the faults make of one command.
    struct Decision: Sendable {
        /// The exchange ends here, instead of the command being processed.
        var outcome: Outcome?
        /// The protected answer carries a wrong MAC.
        var corruptsResponseMAC = false
        /// How long the answer is held back.
        var delay = Duration.zero
    }

    enum Outcome: Sendable, Hashable {
        /// The link breaks: the exchange throws `TransportError.TagLost`.
        case tagLost
        /// The command gets this bare status word.
        case bareStatusWord(StatusWord)
        /// The chip forgets its session keys and answers a bare 6988.
        case dropSession
    }

    /// The decision for a command: `secureCommandNumber` is its 1-based number among the commands
    /// under secure messaging (nil for a plain command, which only lost tags, bare status words
    /// and slow answers strike), `command` the plain command (its instruction, the file it
    /// selects), `reading` the file it reads, `firstUnderNewKeys` whether it is the first command
    /// under keys Chip Authentication replaced.
    func decide(
        secureCommandNumber: Int?, command: CommandAPDU, reading: ChipFileSystem.Read?,
        firstUnderNewKeys: Bool = false
    ) -> Decision {
        var decision = Decision()
        if firstUnderNewKeys && faults.contains(.chipAuthentication(.wrongMACAfterRekey)) {
            decision.corruptsResponseMAC = true
        }
        for fault in faults {
            guard let trigger = Self.trigger(of: fault),
                Self.matches(trigger, number: secureCommandNumber, command: command, reading: reading)
            else { continue }
            switch fault {
            case .tagLost:
                return Decision(outcome: .tagLost)
            case .bareStatusWord(let status, _):
                return Decision(outcome: .bareStatusWord(StatusWord(status)))
            case .dropSession where secureCommandNumber != nil:
                return Decision(outcome: .dropSession)
            case .wrongResponseMAC where secureCommandNumber != nil:
                decision.corruptsResponseMAC = true
            case .slowAnswer(let duration, _):
                decision.delay += duration
            case .dropSession, .wrongResponseMAC, .wrongLengthAbove, .emptyAnswerAbove, .refusesReadPastEnd,
                .paddedEndOfFile, .refusesLeWithoutAnswer, .clutteredCardAccess, .endsSessionOnError,
                .omitStatusWordObject, .pace,
                .chipAuthentication, .activeAuthenticationOverOtherChallenge, .clonedKeys, .forgedCardSecurity,
                .hidesDataGroups:
                break
            }
        }
        return decision
    }

    /// Secure-messaging answers leave out DO'99'.
    var omitsStatusWordObject: Bool { faults.contains(.omitStatusWordObject) }

    /// The PACE faults, which the PACE handler acts on itself.
    var paceFaults: [PACEFault] {
        faults.compactMap { fault -> PACEFault? in
            if case .pace(let paceFault) = fault { return paceFault }
            return nil
        }
    }

    /// The Chip Authentication faults, which the Chip Authentication handler acts on itself.
    var chipAuthenticationFaults: [ChipAuthenticationFault] {
        faults.compactMap { fault -> ChipAuthenticationFault? in
            if case .chipAuthentication(let chipAuthenticationFault) = fault { return chipAuthenticationFault }
            return nil
        }
    }

    /// READ BINARY asking for more than this gets 6700 (the smallest `wrongLengthAbove`).
    var readLengthLimit: Int? {
        faults.compactMap { fault -> Int? in
            if case .wrongLengthAbove(let limit) = fault { return limit }
            return nil
        }.min()
    }

    /// READ BINARY asking for more than this gets 9000 without data (the smallest `emptyAnswerAbove`).
    var emptyAnswerLimit: Int? {
        faults.compactMap { fault -> Int? in
            if case .emptyAnswerAbove(let limit) = fault { return limit }
            return nil
        }.min()
    }

    /// A read passing the file's end gets 6B00.
    var refusesReadPastEnd: Bool { faults.contains(.refusesReadPastEnd) }

    /// A read reaching the file's end gets 6282 and stray padding.
    var padsEndOfFile: Bool { faults.contains(.paddedEndOfFile) }

    /// Whether an error answer under secure messaging ends the session.
    var endsSessionOnError: Bool { faults.contains(.endsSessionOnError) }

    /// Whether `command` is refused with 6700 for carrying an Le it has no answer for: SELECT with
    /// P2 0C (no FCI) or MSE:Set (ISO 7816-4 case 3).
    func refusesExpectedLength(of command: CommandAPDU) -> Bool {
        guard faults.contains(.refusesLeWithoutAnswer), command.expectedLength != nil else { return false }
        return (command.ins == 0xA4 && command.p2 & 0x0C == 0x0C) || command.ins == 0x22
    }

    private static func trigger(of fault: ChipFault) -> FaultTrigger? {
        switch fault {
        case .wrongResponseMAC(let trigger), .bareStatusWord(_, let trigger), .dropSession(let trigger),
            .tagLost(let trigger), .slowAnswer(_, let trigger):
            trigger
        case .wrongLengthAbove, .emptyAnswerAbove, .refusesReadPastEnd, .paddedEndOfFile, .refusesLeWithoutAnswer,
            .clutteredCardAccess, .endsSessionOnError, .omitStatusWordObject, .pace, .chipAuthentication,
            .activeAuthenticationOverOtherChallenge, .clonedKeys, .forgedCardSecurity, .hidesDataGroups:
            nil
        }
    }

    private static func matches(
        _ trigger: FaultTrigger, number: Int?, command: CommandAPDU, reading: ChipFileSystem.Read?
    ) -> Bool {
        switch trigger {
        case .secureCommand(let wanted): wanted == number
        case .readOf(let file): reading?.file == file
        case .readPastHeaderOf(let file): reading?.file == file && (reading?.offset ?? 0) > 0
        case .instruction(let instruction, let p1): command.ins == instruction && (p1 == nil || command.p1 == p1)
        case .selectOf(let file): ChipFileSystem.selection(of: command) == file
        case .always: true
        }
    }
}
