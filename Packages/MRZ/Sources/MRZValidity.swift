import ASN1
import Foundation

/// Whether a zone is well formed and the document still valid at a given time: every check digit
/// (the composite among them) summed up in one flag, dates that cannot exist (month 13, day 32,
/// `000000`), the dates of birth and expiry resolved to a full year, and `expired`.
///
/// Parsing never refuses a zone for these (a misprinted digit must still open the chip), so a
/// caller that acts on the zone asks here.
///
/// The MRZ prints years as two digits, so the century is chosen by rule:
/// - the date of birth is the latest date with those digits that is not after the check date
///   (a holder is born in the past and is taken to be under 100);
/// - the date of expiry is the latest date with those digits at most
///   `expiryYearsAhead` (50) years after the check date's year (a document expires at most
///   that far ahead, and one checked long after it expired still resolves to the past).
public struct MRZValidity: Sendable, Hashable {
    /// How far ahead of the check date an expiry date may lie before it is read as last century.
    public static let expiryYearsAhead = 50

    /// One check digit of the zone named by its field, and whether it matches (not `MRZ`'s
    /// `CheckDigit`, the printed digit itself, which it sums up).
    public struct CheckDigitVerdict: Sendable, Hashable {
        /// `documentNumber`, `dateOfBirth`, `dateOfExpiry`, `optionalData` (TD3's personal
        /// number) or `composite`.
        public let field: String
        public let isValid: Bool
    }

    /// Every check digit the layout has, in zone order.
    public let checkDigits: [CheckDigitVerdict]
    /// Nil for MRV-A and MRV-B, which have none.
    public let compositeCheckDigitValid: Bool?
    public let dateOfBirth: MRZDate
    public let dateOfExpiry: MRZDate
    /// When `expired` was decided.
    public let checkTime: Date
    /// The day after the date of expiry has begun (UTC) at `checkTime`; nil when the date of
    /// expiry is unknown or impossible.
    public let expired: Bool?

    /// Every check digit matches, the composite included.
    public var checkDigitsValid: Bool { checkDigits.allSatisfy(\.isValid) }

    /// What is wrong with the zone itself, in words (never its characters: they are access-key
    /// material); empty when the check digits match and both dates can exist. Expiry is not here:
    /// it is `expired`, a property of the time of the check.
    public var problems: [String] {
        var problems = checkDigits.filter { !$0.isValid }.map {
            $0.field == "composite"
                ? "the composite check digit does not match"
                : "the check digit of the \(Self.words[$0.field] ?? $0.field) does not match"
        }
        for (name, date) in [("date of birth", dateOfBirth), ("date of expiry", dateOfExpiry)] {
            if let problem = date.problem { problems.append("the \(name) is not a possible date (\(problem))") }
        }
        return problems
    }

    /// The zone's fields in the words of a message.
    static let words = [
        "documentNumber": "document number", "dateOfBirth": "date of birth", "dateOfExpiry": "date of expiry",
        "optionalData": "optional data (personal number)",
    ]

    public init(_ zone: MachineReadableZone, at checkTime: Date) {
        let common = zone.common
        var checkDigits = [
            CheckDigitVerdict(field: "documentNumber", isValid: common.documentNumber.checkDigit.isValid),
            CheckDigitVerdict(field: "dateOfBirth", isValid: common.dateOfBirth.checkDigit.isValid),
            CheckDigitVerdict(field: "dateOfExpiry", isValid: common.dateOfExpiry.checkDigit.isValid),
        ]
        if let optional = zone.td3?.optionalDataCheckDigit {
            checkDigits.append(CheckDigitVerdict(field: "optionalData", isValid: optional.isValid))
        }
        let composite = zone.td1?.compositeCheckDigit ?? zone.td2?.compositeCheckDigit ?? zone.td3?.compositeCheckDigit
        if let composite { checkDigits.append(CheckDigitVerdict(field: "composite", isValid: composite.isValid)) }
        self.checkDigits = checkDigits
        compositeCheckDigitValid = composite?.isValid
        self.checkTime = checkTime
        let today = MRZDate.Day(checkTime)
        dateOfBirth = MRZDate(common.dateOfBirth, resolvedBy: .birth, at: today)
        dateOfExpiry = MRZDate(common.dateOfExpiry, resolvedBy: .expiry, at: today)
        expired = dateOfExpiry.day.map { $0 < today }
    }
}

/// A YYMMDD date of the zone with its full year, when it has one.
public struct MRZDate: Sendable, Hashable {
    /// The six characters as printed (`<` for an unknown part).
    public let raw: String
    /// `YYYY-MM-DD` by the century rule of `MRZValidity`; nil when a part is unknown or the date
    /// cannot exist.
    public let isoDate: String?
    /// Why the date cannot exist (a month 13 or 00, a day 32, 00 or 31 April), in words that do not
    /// repeat the digits (MRZ text is access-key material); nil when it can, or when the unknown
    /// parts leave that open.
    public let problem: String?
    /// How the century of `isoDate` was chosen.
    public let rule: Rule
    let day: Day?

    /// A calendar day, ordered.
    struct Day: Sendable, Hashable, Comparable {
        let year: Int
        let month: Int
        let day: Int

        init(year: Int, month: Int, day: Int) {
            (self.year, self.month, self.day) = (year, month, day)
        }

        /// The UTC day `date` falls on.
        init(_ date: Date) {
            let parts = UTCDateTime(date)
            self.init(year: parts.year, month: parts.month, day: parts.day)
        }

        static func < (lhs: Day, rhs: Day) -> Bool {
            (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
        }
    }

    /// The century rules of `MRZValidity`, one per date.
    public enum Rule: Sendable, Hashable, CustomStringConvertible {
        case birth
        case expiry

        /// The rule in words, for a person reading a resolved date (a report).
        public var description: String {
            switch self {
            case .birth: "the latest such date not after the check date"
            case .expiry: "the latest such date at most \(MRZValidity.expiryYearsAhead) years after the check year"
            }
        }
    }

    init(_ element: DateElementWithCheckDigit, resolvedBy rule: Rule, at today: Day) {
        raw = element.raw
        self.rule = rule
        // Two printed digits each, so at most 99: `Int` for the calendar arithmetic below.
        let (printedYear, printedMonth, printedDay) = (
            element.date.year.map(Int.init), element.date.month.map(Int.init), element.date.day.map(Int.init)
        )
        var problem: String?
        if let month = printedMonth, !(1...12).contains(month) { problem = "no month has that number" }
        if let day = printedDay, !(1...31).contains(day) { problem = problem ?? "no month has that day" }
        guard problem == nil, let twoDigits = printedYear, let month = printedMonth, let dayOfMonth = printedDay
        else {
            (self.problem, isoDate, day) = (problem, nil, nil)
            return
        }
        var year: Int
        switch rule {
        case .birth:
            year = today.year - ((today.year - twoDigits) % 100 + 100) % 100
            if Day(year: year, month: month, day: dayOfMonth) > today { year -= 100 }
        case .expiry:
            let latest = today.year + MRZValidity.expiryYearsAhead
            year = latest - ((latest - twoDigits) % 100 + 100) % 100
        }
        guard dayOfMonth <= Self.daysIn(month: month, year: year) else {
            (self.problem, isoDate, day) = ("its month has no such day", nil, nil)
            return
        }
        self.problem = nil
        day = Day(year: year, month: month, day: dayOfMonth)
        isoDate = String(format: "%04d-%02d-%02d", year, month, dayOfMonth)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
