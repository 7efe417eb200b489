import ASN1

/// A CV certificate's date (effective or expiration): YYMMDD as six unpacked BCD digits, one byte
/// each, years 2000–2099 (TR-03110 D.2.1.3). Dates compare by day.
public struct CVCDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Midnight UTC of this day.
    public let dateTime: UTCDateTime
    public var year: Int { dateTime.year }
    public var month: Int { dateTime.month }
    public var day: Int { dateTime.day }

    /// A calendar date between 2000-01-01 and 2099-12-31, nil otherwise.
    public init?(year: Int, month: Int, day: Int) {
        guard (2000...2099).contains(year), let time = UTCDateTime(year: year, month: month, day: day) else {
            return nil
        }
        dateTime = time
    }

    /// The day of a UTC date and time.
    public init?(_ time: UTCDateTime) { self.init(year: time.year, month: time.month, day: time.day) }

    /// Parses the six bytes of 5F25 / 5F24; `field` names the field in the error.
    public init(bcd bytes: some Collection<UInt8>, field: String) throws(CVCError) {
        let digits = Array(bytes)
        guard digits.count == 6, digits.allSatisfy({ $0 <= 9 }) else {
            throw CVCError(.malformed, "\(field) is not six unpacked BCD digits: \(Hex.encode(digits))")
        }
        let value = { (i: Int) in Int(digits[i]) * 10 + Int(digits[i + 1]) }
        guard let date = CVCDate(year: 2000 + value(0), month: value(2), day: value(4)) else {
            throw CVCError(.malformed, "\(field) is not a calendar date: \(Hex.encode(digits))")
        }
        self = date
    }

    /// The six unpacked BCD digits.
    public var bcd: [UInt8] {
        [year % 100, month, day].flatMap { [UInt8($0 / 10), UInt8($0 % 10)] }
    }

    public static func < (lhs: CVCDate, rhs: CVCDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// `YYYY-MM-DD`.
    public var description: String { dateTime.isoDay }
}
