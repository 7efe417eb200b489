import JSON

/// When a biometric sample was captured, as ISO/IEC 39794 records it (CaptureDateTimeBlock):
/// the date is required, the time fields are optional, all in UTC.
///
/// ```
/// CaptureDateTimeBlock ::= SEQUENCE { year [0] INTEGER, month [1] INTEGER, day [2] INTEGER,
///     hour [3] INTEGER OPTIONAL, minute [4] INTEGER OPTIONAL, second [5] INTEGER OPTIONAL,
///     millisecond [6] INTEGER OPTIONAL }
/// ```
public struct BiometricCaptureDateTime: Sendable, Equatable, JSONRepresentable {
    public let year: Int
    public let month: Int
    public let day: Int
    public let hour: Int?
    public let minute: Int?
    public let second: Int?
    public let millisecond: Int?

    public init(
        year: Int, month: Int, day: Int, hour: Int? = nil, minute: Int? = nil, second: Int? = nil,
        millisecond: Int? = nil
    ) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.millisecond = millisecond
    }

    public var json: JSONValue {
        [
            "year": .integer(year), "month": .integer(month), "day": .integer(day), "hour": .optional(hour),
            "minute": .optional(minute), "second": .optional(second), "millisecond": .optional(millisecond),
        ]
    }
}
