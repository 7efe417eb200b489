import Foundation
import MRZ

/// `emrtd mrz`: reads a machine readable zone and prints everything the MRZ package finds in it.
enum MRZCommand: Command {
    static let name = "mrz"
    static let printsOnlyJSON = true
    static let summary = "parse a machine readable zone (TD1, TD2, TD3, MRV-A, MRV-B) and print it as JSON"
    static let usage = """
        usage: emrtd mrz LINE LINE [LINE] [--at ISO8601] [--correct]
               emrtd mrz ZONE [--correct]
               emrtd mrz < zone.txt

        Prints the zone's fields, their positions and check digits as JSON, and a "validity"
        object: every check digit (checkDigitsValid sums them up, the composite included), the
        dates of birth and expiry as ISO dates beside the raw YYMMDD, each date that cannot
        exist (month 13, day 32, 000000), and whether the document has expired at --at (default
        now). Two-digit years: the date of birth is the latest date not after the check date;
        the date of expiry the latest at most 50 years after the check date's year.
        ZONE is the whole zone on one line, as DG1 stores it. Without arguments the lines are
        read from standard input (at most 4096 bytes); blank lines are skipped.
        --correct puts OCR confusions right (O/0, I/1, B/8, S/5, Z/2, G/6) where exactly one
        reading is valid: a letter in a date or check digit, a digit in a name, state or
        nationality, and a document number or optional data whose check digits only one way of
        reading its confusable characters satisfies. Each change is in "corrections" ("changes":
        0-based line and column, from, to, field; "ambiguousFields": fields left as read because
        several readings, or none, are valid) and on standard error; the rest is the corrected
        zone's JSON.
        Exit status: 0 a valid zone, 3 a check digit fails or a date cannot exist (the JSON is
        printed all the same), 1 not an MRZ, 2 wrong command line (the table: emrtd --help).
        """

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        let time = try arguments.option("--at").map(TrustOptions.parseTime) ?? Date()
        let correct = arguments.flag("--correct")
        var lines = try arguments.positionals().flatMap(nonBlankLines)
        if lines.isEmpty {
            guard isatty(STDIN_FILENO) == 0 else {
                throw UsageError("give the MRZ lines as arguments or on standard input")
            }
            let input = try readStandardInput(limit: InputLimit.mrzText, what: "an MRZ")
            lines = nonBlankLines(String(decoding: input, as: UTF8.self))
        }
        guard !lines.isEmpty else { throw UsageError("no MRZ lines given") }
        var zone: MachineReadableZone
        var correction: MRZCorrection?
        do {
            zone =
                try lines.count == 1
                ? MachineReadableZone.parse(unbrokenText: lines[0]) : MachineReadableZone.parse(lines: lines)
            if correct {
                let corrected = try MRZCorrection.correcting(lines: zone.lines)
                zone = try corrected.zone
                correction = corrected
            }
        } catch {
            throw CommandFailure("not a valid MRZ: \(error.reason)")
        }
        for change in correction?.changes ?? [] {
            printError(
                "emrtd mrz: corrected line \(change.line + 1), column \(change.column + 1) (\(change.field)):"
                    + " \(change.from) → \(change.to)")
        }
        let validity = MRZValidity(zone, at: time)
        var json = adding(["validity": validity.json], to: zone.json)
        if let correction { json = adding(["corrections": correction.json], to: json) }
        print(json.serialized(pretty: true))
        guard validity.problems.isEmpty else {
            printError("emrtd mrz: not valid: " + validity.problems.joined(separator: "; "))
            return 3
        }
        return 0
    }

    /// An argument may hold several lines, e.g. `"$(cat zone.txt)"`.
    private static func nonBlankLines(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.allSatisfy(\.isWhitespace) }
    }
}
