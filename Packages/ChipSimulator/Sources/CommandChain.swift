import Transport

/// ISO/IEC 7816-4 command chaining (§5.3.3): a command whose CLA has bit 0x10 set is one part of
/// a longer command. The chip keeps the parts' data until the last part (bit clear) arrives and
/// then processes the whole; each earlier part is answered 9000 alone.
struct CommandChain: Sendable {
    /// The chaining bit of CLA.
    static let bit: UInt8 = 0x10
    /// 6883: the chip expected the next part of the chain.
    static let lastCommandExpected = StatusWord(0x6883)

    private var pending: (header: [UInt8], data: [UInt8])?

    /// Whether a chain is under way.
    var isOpen: Bool { pending != nil }

    enum Step: Sendable {
        /// A part was kept; the chip answers 9000.
        case accumulated
        /// The whole command, chaining bit cleared, data joined.
        case complete(CommandAPDU)
        /// The chain is broken (another command arrived mid-chain, or the data grew past what a
        /// command can hold); the parts are dropped and the chip answers this.
        case rejected(StatusWord)
    }

    /// Takes the next (plain) command.
    mutating func take(_ command: CommandAPDU) -> Step {
        let chained = command.cla & Self.bit != 0
        let header = [command.cla & ~Self.bit, command.ins, command.p1, command.p2]
        var data = command.data
        if let pending {
            guard pending.header == header else {
                self.pending = nil
                return .rejected(Self.lastCommandExpected)
            }
            data = pending.data + data
        }
        guard data.count <= CommandAPDU.maximumDataLength else {
            pending = nil
            return .rejected(.wrongLength)
        }
        if chained {
            pending = (header, data)
            return .accumulated
        }
        pending = nil
        var whole = command
        whole.cla &= ~Self.bit
        whole.data = data
        return .complete(whole)
    }

    /// Drops a chain under way (the session ended, the chip was reset).
    mutating func abandon() { pending = nil }
}
