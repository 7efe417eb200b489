import Foundation
import MRZ

/// `emrtd mrz`: reads a machine readable zone and prints everything the MRZ package finds in it.
enum MRZCommand: Command {
    static let name = "mrz"
    static let summary = "parse a machine readable zone (TD1, TD2, TD3, MRV-A, MRV-B) and print it as JSON"
    static let usage = """
        usage: emrtd mrz LINE LINE [LINE]
               emrtd mrz ZONE
               emrtd mrz < zone.txt

        Prints the zone's fields, their positions and check digits as JSON. ZONE is the whole
        zone on one line, as DG1 stores it. Without arguments the lines are read from standard
        input; blank lines are skipped.
        Exit status: 0 read, 1 not a valid MRZ, 2 wrong command line.
        """

    /// More lines than any zone has, so that endless input stops being read early.
    private static let maximumInputLines = 16

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        var lines = try arguments.positionals().flatMap(nonBlankLines)
        if lines.isEmpty {
            guard isatty(STDIN_FILENO) == 0 else {
                throw UsageError("give the MRZ lines as arguments or on standard input")
            }
            lines = readStandardInput()
        }
        guard !lines.isEmpty else { throw UsageError("no MRZ lines given") }
        do {
            let zone = try lines.count == 1 ? parseMrz(unbrokenText: lines[0]) : parseMrz(lines: lines)
            print(machineReadableZoneToJson(mrz: zone, prettyPrinted: true))
        } catch {
            throw CommandFailure("not a valid MRZ: \(error.reason)")
        }
        return 0
    }

    /// An argument may hold several lines, e.g. `"$(cat zone.txt)"`.
    private static func nonBlankLines(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.allSatisfy(\.isWhitespace) }
    }

    private static func readStandardInput() -> [String] {
        var lines: [String] = []
        while lines.count < maximumInputLines, let line = readLine() {
            lines += nonBlankLines(line)
        }
        return lines
    }
}
