import Emrtd
import Foundation
import JSON
import MRZ

/// The longest MRZ request: 3 lines of 30 or 2 of 44 characters, quoted, with room for spaces.
let mrzRequestLimit = 4096

/// `emrtd_parse_mrz`: a JSON array of lines in, `machineReadableZoneToJson` out.
@_cdecl("emrtd_parse_mrz")
public func emrtdParseMrz(
    _ linesJSON: UnsafePointer<CChar>?, _ length: Int, _ result: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ resultLength: UnsafeMutablePointer<Int>?
) -> Int32 {
    ABIResult.run(result, resultLength) { () throws(ReadError) in
        let text = try callerText(linesJSON, length, limit: mrzRequestLimit, what: "the MRZ lines")
        let request = try RequestObject.parse(text, what: "the MRZ lines")
        guard case .array(let items) = request else {
            throw ReadError(.invalidArgument, "the MRZ lines must be a JSON array of strings")
        }
        var lines: [String] = []
        for item in items {
            guard case .string(let line) = item else {
                throw ReadError(.invalidArgument, "the MRZ lines must be a JSON array of strings")
            }
            lines.append(line)
        }
        let zone = try parseMrz(lines: lines)
        // A zone that parses may still be invalid (a check digit, a date): its validity now
        // beside it, as `emrtd mrz` prints it.
        guard case .object(let members) = zone.json else { return machineReadableZoneToJson(mrz: zone) }
        let validity = MRZValidity(zone, at: Date())
        return JSONValue.object(members + [JSONMember("validity", validity.json)]).serialized(.compact)
    }
}
