import AccessControl
import MRZ

/// How `emrtd read` and `emrtd dump` open a chip: the key (`--mrz`, `--can` or `--mrz-lines`) and
/// which protocols may run (`--access auto|pace|bac`).
struct AccessOptions {
    let accessKey: AccessKey
    let preferences: ChipAccessPreferences
    /// The zone printed on the page, when the key came from `--mrz-lines`: `read` compares it with DG1.
    let printedZone: MachineReadableZone?

    static let usage = """
        --access auto (default) runs PACE when EF.CardAccess offers it, the strongest offer first,
        and BAC when the chip offers no PACE or every offer failed before mutual authentication
        (with a warning); --access pace never runs BAC; --access bac never tries PACE. A CAN opens
        only chips with PACE.
        """

    /// Takes the options out of `arguments`.
    static func read(_ arguments: inout ArgumentReader) throws -> AccessOptions {
        let mrz = try arguments.values("--mrz", count: 3)
        let can = try arguments.option("--can")
        let lines = arguments.variadic("--mrz-lines")
        guard [mrz != nil, can != nil, lines != nil].filter({ $0 }).count == 1 else {
            throw UsageError("give one of --mrz DOCNUMBER DATEOFBIRTH DATEOFEXPIRY, --can CAN, --mrz-lines LINE...")
        }
        let accessKey: AccessKey
        do throws(MRZError) {
            if let mrz {
                accessKey = try AccessKey.mrz(documentNumber: mrz[0], dateOfBirth: mrz[1], dateOfExpiry: mrz[2])
            } else if let can {
                accessKey = try AccessKey.can(value: can)
            } else {
                accessKey = try accessKeyFromMrz(try parseMrz(lines: lines ?? []))
            }
        } catch {
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
            accessKey: accessKey, preferences: preferences, printedZone: try lines.map(StrictOption.printedZone))
    }
}
