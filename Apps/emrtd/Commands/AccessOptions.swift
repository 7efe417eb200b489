import AccessControl
import Foundation
import MRZ

/// How `emrtd read` and `emrtd dump` open a chip: the key (`--mrz`, `--can` or `--mrz-lines`;
/// `--mrz-lines -` reads the lines from standard input) and which protocols may run
/// (`--access auto|pace|bac`).
struct AccessOptions {
    let accessKey: AccessPassword
    let preferences: ChipAccessPreferences
    /// The zone printed on the page, when the key came from `--mrz-lines`: `read` compares it with DG1.
    let printedZone: MachineReadableZone?
    /// `--mrz-lines -`: `accessKey` is the first zone on standard input, and a kiosk reads the
    /// next zone there for each later card.
    var keysFromStandardInput = false

    static let usage = """
        --access auto (default) runs PACE when EF.CardAccess offers it, the strongest offer first,
        and BAC when the chip offers no PACE or every offer failed before mutual authentication
        (with a warning); --access pace never runs BAC; --access bac never tries PACE. A CAN opens
        only chips with PACE.
        """

    /// The next zone on standard input (`--mrz-lines -`, as an OCR reader writes it): its 2 lines
    /// (TD2, TD3) or 3 (TD1, told by the first line's 30 characters), blank lines between zones
    /// skipped; nil at the end of the input (or when Ctrl-C interrupts the wait).
    static func keyFromStandardInput() throws -> AccessPassword? {
        var lines: [String] = []
        while let line = readLine() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            lines.append(trimmed)
            if lines.count == (lines[0].count == 30 ? 3 : 2) { break }
        }
        guard !lines.isEmpty else { return nil }
        do throws(MRZError) {
            return try AccessPassword.printed(in: try MachineReadableZone.parse(lines: lines))
        } catch {
            throw CommandFailure("the MRZ lines on standard input: \(error.reason)")
        }
    }

    /// Takes the options out of `arguments`.
    static func read(_ arguments: inout ArgumentReader) throws -> AccessOptions {
        let mrz = try arguments.values("--mrz", count: 3)
        let can = try arguments.option("--can")
        let lines = arguments.variadic("--mrz-lines")
        guard [mrz != nil, can != nil, lines != nil].filter({ $0 }).count == 1 else {
            throw UsageError("give one of --mrz DOCNUMBER DATEOFBIRTH DATEOFEXPIRY, --can CAN, --mrz-lines LINE...")
        }
        let accessKey: AccessPassword
        do {
            if let mrz {
                accessKey = try AccessPassword.mrz(documentNumber: mrz[0], dateOfBirth: mrz[1], dateOfExpiry: mrz[2])
            } else if let can {
                accessKey = try AccessPassword.can(value: can)
            } else if lines == ["-"] {
                guard let key = try keyFromStandardInput() else {
                    throw UsageError("--mrz-lines -: no MRZ lines on standard input")
                }
                accessKey = key
            } else {
                accessKey = try AccessPassword.printed(in: try MachineReadableZone.parse(lines: lines ?? []))
            }
        } catch let error as MRZError {
            throw UsageError("invalid access key: \(error.reason)")
        }
        let preferences: ChipAccessPreferences
        switch try arguments.option("--access") ?? "auto" {
        case "auto": preferences = ChipAccessPreferences()
        case "pace": preferences = ChipAccessPreferences(allowsBACFallback: false)
        case "bac":
            guard accessKey.kind == .mrz else { throw UsageError("--access bac needs the MRZ: a CAN opens only PACE") }
            preferences = ChipAccessPreferences(paceMappings: [])
        case let other: throw UsageError("--access takes auto, pace or bac, not \(other)")
        }
        return AccessOptions(
            accessKey: accessKey, preferences: preferences,
            printedZone: lines == ["-"] ? nil : try lines.map(StrictOption.printedZone),
            keysFromStandardInput: lines == ["-"])
    }
}
