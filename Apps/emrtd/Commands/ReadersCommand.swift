import ASN1
import PCSC
import Transport

/// `emrtd readers`: the PC/SC readers pcscd knows and whether each holds a card.
enum ReadersCommand: Command {
    static let name = "readers"
    static let summary = "list the PC/SC readers and whether a card is present"
    static let usage = """
        usage: emrtd readers

        Prints one line per PC/SC reader: its name, then "card present" with the card's ATR,
        or "no card". Exit status: 0 listed (also when there is no reader), 1 no PC/SC
        service (pcscd), 2 wrong command line.
        """

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        try arguments.noPositionals()
        let readers: [PCSCReader]
        do {
            readers = try PCSCContext().readers()
        } catch {
            throw CommandFailure(pcscMessage(error))
        }
        guard !readers.isEmpty else {
            print("no PC/SC reader is connected")
            return 0
        }
        for reader in readers {
            print(
                reader.isCardPresent
                    ? "\(reader.name): card present (ATR \(Hex.encode(reader.answerToReset)))"
                    : "\(reader.name): no card")
        }
        return 0
    }
}

/// A PC/SC failure as one line for the user.
func pcscMessage(_ error: TransportError) -> String {
    switch error {
    case .Io(let detail): detail
    default: error.description
    }
}
