import ASN1
import Emrtd
import Foundation
import JSON

/// A caller's JSON request object: its members read by name with their types checked, and a
/// member no call knows refused, so that a misspelt option is an error rather than a default.
struct RequestObject {
    private let members: [String: JSONValue]
    private let what: String

    /// Parses `text`; a JSON error is the caller's (`invalidArgument`).
    static func parse(_ text: String, what: String) throws(ReadError) -> JSONValue {
        do throws(JSONParseError) {
            return try JSONValue.parse(text)
        } catch {
            throw ReadError(.invalidArgument, "\(what) is not JSON: \(error.reason) at byte \(error.offset)")
        }
    }

    /// `value` as an object whose keys are among `allowed`.
    init(_ value: JSONValue, what: String, allowed: Set<String>) throws(ReadError) {
        guard case .object(let list) = value else { throw ReadError(.invalidArgument, "\(what) must be a JSON object") }
        var members: [String: JSONValue] = [:]
        for member in list {
            guard allowed.contains(member.key) else {
                throw ReadError(
                    .invalidArgument,
                    "\(what) has an unknown key \"\(member.key)\" (known: \(allowed.sorted().joined(separator: ", ")))")
            }
            members[member.key] = member.value
        }
        self.members = members
        self.what = what
    }

    /// A member that is absent or `null` is nil.
    subscript(key: String) -> JSONValue? {
        guard let value = members[key], value != .null else { return nil }
        return value
    }

    func string(_ key: String) throws(ReadError) -> String? {
        guard let value = self[key] else { return nil }
        guard case .string(let text) = value else { throw mistyped(key, "a string") }
        return text
    }

    func bool(_ key: String) throws(ReadError) -> Bool? {
        guard let value = self[key] else { return nil }
        guard case .bool(let flag) = value else { throw mistyped(key, "true or false") }
        return flag
    }

    func integer(_ key: String) throws(ReadError) -> Int? {
        guard let value = self[key] else { return nil }
        guard case .integer(let number) = value else { throw mistyped(key, "an integer") }
        return number
    }

    func strings(_ key: String) throws(ReadError) -> [String]? {
        guard let value = self[key] else { return nil }
        guard case .array(let items) = value else { throw mistyped(key, "an array of strings") }
        var strings: [String] = []
        for item in items {
            guard case .string(let text) = item else { throw mistyped(key, "an array of strings") }
            strings.append(text)
        }
        return strings
    }

    /// Base64 bytes (padded standard alphabet, the JSON contract's form).
    func bytes(_ key: String) throws(ReadError) -> [UInt8]? {
        guard let text = try string(key) else { return nil }
        guard let data = Data(base64Encoded: text) else { throw mistyped(key, "base64") }
        return [UInt8](data)
    }

    /// An ISO 8601 UTC time: a date ("2026-06-01") or a date and time ("2026-06-01T12:00:00Z").
    func time(_ key: String) throws(ReadError) -> Date? {
        guard let text = try string(key) else { return nil }
        guard let time = Self.utcTime(text) else {
            throw ReadError(
                .invalidArgument,
                "\(what)'s \"\(key)\" is not an ISO 8601 date or UTC time (2026-06-01 or 2026-06-01T12:00:00Z)")
        }
        return time
    }

    private static func utcTime(_ text: String) -> Date? {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { return nil }
        let day = parts[0].split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard day.count == 3, parts[0].count == 10, let year = day[0], let month = day[1], let date = day[2] else {
            return nil
        }
        var clock: [Int?] = [0, 0, 0]
        if parts.count == 2 {
            guard parts[1].count == 9, parts[1].hasSuffix("Z") else { return nil }
            clock = parts[1].dropLast().split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        }
        guard clock.count == 3, let hour = clock[0], let minute = clock[1], let second = clock[2] else { return nil }
        return UTCDateTime(year: year, month: month, day: date, hour: hour, minute: minute, second: second)?.date
    }

    private func mistyped(_ key: String, _ type: String) -> ReadError {
        ReadError(.invalidArgument, "\(what)'s \"\(key)\" must be \(type)")
    }
}
