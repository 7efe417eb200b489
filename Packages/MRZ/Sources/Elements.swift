/// Where an element sits in the zone: a line and an inclusive column range, all 0-based
/// (`lineIndex` 0 is the first line, `startIndex` 0 the first character).
public struct MrzPosition: Sendable, Hashable {
    public let lineIndex: Int
    public let startIndex: Int
    public let endIndex: Int

    public init(lineIndex: Int, startIndex: Int, endIndex: Int) {
        self.lineIndex = lineIndex
        self.startIndex = startIndex
        self.endIndex = endIndex
    }
}

/// One field of the zone.
///
/// `raw` is the text as printed (the ranges of `positions` joined, fillers kept); `value` is
/// `raw` without its trailing fillers and with the inner fillers turned into spaces.
/// `positions` has one range, or two for a document number continued in the optional data,
/// and none for an optional-data field that such a document number used up.
public struct MrzElement: Sendable, Hashable {
    public let value: String
    public let raw: String
    public let positions: [MrzPosition]
}

/// A check digit as printed and whether it matches the data it guards (ICAO 9303-3 §4.9).
public struct MrzCheckDigit: Sendable, Hashable {
    /// The printed character (a digit when well-formed).
    public let value: String
    public let isValid: Bool
    public let position: MrzPosition
}

/// A field followed by its check digit (the document number, the TD3 personal number).
public struct MrzElementWithCheckDigit: Sendable, Hashable {
    public let value: String
    public let raw: String
    public let positions: [MrzPosition]
    public let checkDigit: MrzCheckDigit
}

/// A YYMMDD date with its check digit. The parts are the two printed digits as numbers, nil
/// where they are not two digits (e.g. `<<` for an unknown day); no century is inferred, since
/// the MRZ alone cannot tell 1924 from 2024.
public struct MrzDateElement: Sendable, Hashable {
    public let value: String
    public let raw: String
    public let positions: [MrzPosition]
    public let year: Int?
    public let month: Int?
    public let day: Int?
    public let checkDigit: MrzCheckDigit
}

/// The name field: `value` is the whole name (fillers as spaces); the primary identifier is the
/// part before the first `<<`, the secondary identifier the rest (ICAO 9303-3 §4.6), each with
/// its inner fillers as single spaces. The secondary identifier is empty when there is none.
public struct MrzNameElement: Sendable, Hashable {
    public let value: String
    public let raw: String
    public let positions: [MrzPosition]
    public let primaryIdentifier: String
    public let secondaryIdentifier: String
}
