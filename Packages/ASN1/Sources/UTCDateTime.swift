import Foundation

/// A moment's calendar fields in UTC (proleptic Gregorian), computed by arithmetic on days since
/// 1970 (H. Hinnant's `civil_from_days` and `days_from_civil`).
///
/// Why not `Calendar(identifier: .gregorian)`: creating one looks up the machine's current time
/// zone through ICU, and loading ICU's data adds about 5 MB to the resident memory of every
/// process that parses a certificate date, checks an expiry or writes one (`emrtd-bench memory`);
/// `ISO8601DateFormatter` loads it too. Every UTC date this project reads (UTCTime,
/// GeneralizedTime, MRZ days) or writes (JSON, DER, error messages) goes through here instead.
public struct UTCDateTime: Sendable, Hashable {
    public let year: Int
    public let month: Int
    public let day: Int
    public let hour: Int
    public let minute: Int
    public let second: Int

    /// The fields of `date`, to the second (rounded down).
    public init(_ date: Date) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (dayNumber, time) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
        (year, month, day) = Self.civil(fromDays: dayNumber)
        (hour, minute, second) = (time / 3600, time / 60 % 60, time % 60)
    }

    /// Fields that name a real moment (the day exists in that month; second 60, a leap second,
    /// is the next minute's first), else nil.
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        guard (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day),
            (0..<24).contains(hour), (0..<60).contains(minute), (0...60).contains(second)
        else { return nil }
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (
            year, month, day, hour, minute, second
        )
    }

    /// The moment, in seconds since 1970.
    public var date: Date {
        let days = Self.days(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3600 + minute * 60 + second))
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, as JSON and messages write a moment.
    public var iso8601: String {
        "\(isoDay)T\(Self.pad(hour, 2)):\(Self.pad(minute, 2)):\(Self.pad(second, 2))Z"
    }

    /// `YYYY-MM-DD`.
    public var isoDay: String { "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))" }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a civil date.
    static func days(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date `days` after 1970-01-01.
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
