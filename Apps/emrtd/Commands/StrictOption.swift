import JSON
import MRZ

/// `--strict`, or its spelling for scripts `--require authenticated`, shared by `read` and
/// `verify`: exit 3 unless every requirement of `DocumentChecks.unmetStrictRequirements` is met.
enum StrictOption {
    static func read(_ arguments: inout ArgumentReader) throws -> Bool {
        let strict = arguments.flag("--strict")
        guard let required = try arguments.option("--require") else { return strict }
        guard required == "authenticated" else {
            throw UsageError("--require takes authenticated (the one requirement there is), not \(required)")
        }
        return true
    }

    /// The zone printed on the page, from `--mrz-lines` (one argument per line, or the whole
    /// zone in one argument with line breaks).
    static func printedZone(_ lines: [String]) throws -> MachineReadableZone {
        let split = lines.flatMap { $0.split(whereSeparator: \.isNewline).map(String.init) }
        do {
            return try MachineReadableZone.parse(lines: split)
        } catch {
            throw UsageError("--mrz-lines is not a valid MRZ: \(error.reason)")
        }
    }
}

/// `object` with `members` appended: the keys `read --json` and `verify` add to the reference's
/// JSON (`checks`, `warnings`), which they never rename or drop.
func adding(_ members: KeyValuePairs<String, JSONValue>, to object: JSONValue) -> JSONValue {
    guard case .object(let existing) = object else { return object }
    return .object(existing + members.map { JSONMember($0.key, $0.value) })
}
