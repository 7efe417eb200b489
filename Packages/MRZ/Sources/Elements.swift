/// The reference's `StringPosition`: where an element sits in the zone, a line and an inclusive
/// column range, all 0-based (`lineIndex` 0 is the first line, `startIndex` 0 the first
/// character). `UInt32` as the reference has it; the parser indexes with `Int` and converts once.
public struct StringPosition: Sendable, Hashable {
    public let lineIndex: UInt32
    public let startIndex: UInt32
    public let endIndex: UInt32

    public init(lineIndex: UInt32, startIndex: UInt32, endIndex: UInt32) {
        self.lineIndex = lineIndex
        self.startIndex = startIndex
        self.endIndex = endIndex
    }

    /// A position from the parser's `Int` indices, which are small and never negative (a zone
    /// has at most 3 lines of 44 characters).
    init(line: Int, columns: ClosedRange<Int>) {
        self.init(
            lineIndex: UInt32(line), startIndex: UInt32(columns.lowerBound), endIndex: UInt32(columns.upperBound))
    }
}

/// The reference's `Element`: one field of the zone.
///
/// `raw` is the text as printed (the ranges of `positions` joined, fillers kept); `value` is
/// `raw` without its trailing fillers and with the inner fillers turned into spaces.
/// `positions` has one range, or two for a document number continued in the optional data,
/// and none for an optional-data field that such a document number used up.
public struct Element: Sendable, Hashable {
    public let value: String
    public let raw: String
    public let positions: [StringPosition]

    public init(value: String, raw: String, positions: [StringPosition]) {
        self.value = value
        self.raw = raw
        self.positions = positions
    }
}

/// The reference's `CheckDigit`: a check digit as printed and whether it matches the data it
/// guards (ICAO 9303-3 §4.9). `position` is added.
public struct CheckDigit: Sendable, Hashable {
    /// The printed character (a digit when well-formed; empty for MRV-A's optional data, which
    /// has no check digit).
    public let value: String
    public let isValid: Bool
    /// Where the digit is printed (added).
    public let position: StringPosition

    public init(value: String, isValid: Bool, position: StringPosition) {
        self.value = value
        self.isValid = isValid
        self.position = position
    }
}

/// The reference's `ElementWithCheckDigit`: a field followed by its check digit (the document
/// number, the TD3 personal number).
public struct ElementWithCheckDigit: Sendable, Hashable {
    public let value: String
    public let raw: String
    public let positions: [StringPosition]
    public let checkDigit: CheckDigit

    public init(value: String, raw: String, positions: [StringPosition], checkDigit: CheckDigit) {
        self.value = value
        self.raw = raw
        self.positions = positions
        self.checkDigit = checkDigit
    }

    /// The field without its check digit.
    public var element: Element { Element(value: value, raw: raw, positions: positions) }
}

/// The reference's `MrzDate`: a YYMMDD date's parts, the two printed digits as numbers, nil
/// where they are not two digits (e.g. `<<` for an unknown day). No century is inferred, since
/// the MRZ alone cannot tell 1924 from 2024 (`MRZValidity` resolves one by rule).
public struct MrzDate: Sendable, Hashable {
    public let year: UInt32?
    public let month: UInt32?
    public let day: UInt32?

    public init(year: UInt32?, month: UInt32?, day: UInt32?) {
        self.year = year
        self.month = month
        self.day = day
    }
}

/// The reference's `DateElementWithCheckDigit`: a YYMMDD date with its check digit.
public struct DateElementWithCheckDigit: Sendable, Hashable {
    public let date: MrzDate
    public let value: String
    public let raw: String
    public let positions: [StringPosition]
    public let checkDigit: CheckDigit

    public init(date: MrzDate, value: String, raw: String, positions: [StringPosition], checkDigit: CheckDigit) {
        self.date = date
        self.value = value
        self.raw = raw
        self.positions = positions
        self.checkDigit = checkDigit
    }
}

/// The reference's `NameElement`: the primary identifier is the part before the first `<<`, the
/// secondary identifier the rest (ICAO 9303-3 §4.6), each an element of its own with its inner
/// fillers as single spaces, nil when the zone prints none. The whole field (`value`, `raw`,
/// `positions`) is added.
public struct NameElement: Sendable, Hashable {
    /// The whole name, fillers as spaces (added).
    public let value: String
    /// The whole field as printed (added).
    public let raw: String
    /// Where the whole field is printed (added).
    public let positions: [StringPosition]
    public let primaryIdentifier: Element?
    public let secondaryIdentifier: Element?

    public init(
        value: String, raw: String, positions: [StringPosition], primaryIdentifier: Element?,
        secondaryIdentifier: Element?
    ) {
        self.value = value
        self.raw = raw
        self.positions = positions
        self.primaryIdentifier = primaryIdentifier
        self.secondaryIdentifier = secondaryIdentifier
    }
}
