/// The validated lines of a zone as ASCII bytes, and the readers that cut elements out of them.
/// Every range passed in is within the line lengths the layout was chosen for.
struct ZoneText {
    let lines: [[UInt8]]

    init(validating lines: [String]) throws(MRZError) {
        guard let first = lines.first else { throw .invalidArgument("an MRZ has 2 or 3 lines; got none") }
        for (index, line) in lines.enumerated() where line.utf8.count != first.utf8.count {
            throw .invalidArgument(
                "MRZ lines must have equal length; line 1 has \(first.utf8.count) characters, line \(index + 1) has \(line.utf8.count)"
            )
        }
        for (lineIndex, line) in lines.enumerated() {
            if let column = line.utf8.firstIndex(where: { !isMRZCharacter($0) }) {
                let offset = line.utf8.distance(from: line.utf8.startIndex, to: column)
                throw .invalidArgument(
                    "line \(lineIndex + 1), column \(offset + 1): only A-Z, 0-9 and < may appear in an MRZ"
                )
            }
        }
        self.lines = lines.map { Array($0.utf8) }
    }

    func raw(_ line: Int, _ columns: ClosedRange<Int>) -> [UInt8] {
        Array(lines[line][columns])
    }

    /// A plain element over one or more ranges.
    func element(_ ranges: [(Int, ClosedRange<Int>)]) -> MrzElement {
        let raw = ranges.flatMap { self.raw($0.0, $0.1) }
        return MrzElement(
            value: displayValue(raw), raw: String(decoding: raw, as: UTF8.self), positions: positions(ranges))
    }

    func element(_ line: Int, _ columns: ClosedRange<Int>) -> MrzElement {
        element([(line, columns)])
    }

    /// The check digit at `position` over the data in `ranges`. With `fillerValidWhenEmpty`
    /// a `<` is accepted over all-filler data (ICAO 9303-4 §4.2.2.3: an unused personal number).
    func checkDigit(
        at position: MrzPosition,
        over ranges: [(Int, ClosedRange<Int>)],
        fillerValidWhenEmpty: Bool = false
    ) -> MrzCheckDigit {
        let data = ranges.flatMap { raw($0.0, $0.1) }
        let printed = lines[position.lineIndex][position.startIndex]
        let isValid =
            printed == UInt8(ascii: "0") + mrzCheckDigit(of: data)
            || (fillerValidWhenEmpty && printed == mrzFiller && data.allSatisfy { $0 == mrzFiller })
        return MrzCheckDigit(value: String(decoding: [printed], as: UTF8.self), isValid: isValid, position: position)
    }

    /// The document number at `start` (9 characters, check digit after them).
    ///
    /// Where `continuation` is given (TD1, TD2), a `<` in the check-digit place means the number
    /// goes on in that optional-data range up to the next filler, the last character before that
    /// filler being the check digit (ICAO 9303-5 §4.2.4, 9303-6 §4.2.4). Returns the number and
    /// the optional data left after the continuation and its closing filler.
    func documentNumber(
        line: Int,
        start: Int,
        continuation: ClosedRange<Int>?
    ) -> (MrzElementWithCheckDigit, MrzElement) {
        let principal = (line, start...(start + 8))
        let checkColumn = start + 9
        guard let optional = continuation else {
            return (withCheckDigit([principal], checkColumn: checkColumn, line: line), MrzElement.empty)
        }
        let continued = optional.prefix { lines[line][$0] != mrzFiller }
        guard lines[line][checkColumn] == mrzFiller, let lastContinued = continued.last else {
            return (withCheckDigit([principal], checkColumn: checkColumn, line: line), element(line, optional))
        }
        let extraRanges = lastContinued > optional.lowerBound ? [(line, optional.lowerBound...(lastContinued - 1))] : []
        let number = withCheckDigit([principal] + extraRanges, checkColumn: lastContinued, line: line)
        let restStart = lastContinued + 2
        let rest = restStart <= optional.upperBound ? element(line, restStart...optional.upperBound) : MrzElement.empty
        return (number, rest)
    }

    private func withCheckDigit(
        _ ranges: [(Int, ClosedRange<Int>)],
        checkColumn: Int,
        line: Int
    ) -> MrzElementWithCheckDigit {
        let plain = element(ranges)
        return MrzElementWithCheckDigit(
            value: plain.value,
            raw: plain.raw,
            positions: plain.positions,
            checkDigit: checkDigit(
                at: MrzPosition(lineIndex: line, startIndex: checkColumn, endIndex: checkColumn),
                over: ranges
            )
        )
    }

    /// A YYMMDD date at `start` with its check digit right after it.
    func date(_ line: Int, start: Int) -> MrzDateElement {
        let plain = element(line, start...(start + 5))
        let digits = raw(line, start...(start + 5))
        func part(_ offset: Int) -> Int? {
            let pair = digits[offset...(offset + 1)]
            guard pair.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
            return pair.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        return MrzDateElement(
            value: plain.value,
            raw: plain.raw,
            positions: plain.positions,
            year: part(0),
            month: part(2),
            day: part(4),
            checkDigit: checkDigit(
                at: MrzPosition(lineIndex: line, startIndex: start + 6, endIndex: start + 6),
                over: [(line, start...(start + 5))]
            )
        )
    }

    /// The name field, split at the first `<<` (ICAO 9303-3 §4.6).
    func name(_ line: Int, _ columns: ClosedRange<Int>) -> MrzNameElement {
        let plain = element(line, columns)
        let used = raw(line, columns).dropLastFillers()
        var primary = used[...]
        var secondary: ArraySlice<UInt8> = []
        if let separator = used.indices.dropLast().first(where: { used[$0] == mrzFiller && used[$0 + 1] == mrzFiller })
        {
            primary = used[..<separator]
            secondary = used[(separator + 2)...]
        }
        return MrzNameElement(
            value: plain.value,
            raw: plain.raw,
            positions: plain.positions,
            primaryIdentifier: identifierText(primary),
            secondaryIdentifier: identifierText(secondary)
        )
    }

    private func positions(_ ranges: [(Int, ClosedRange<Int>)]) -> [MrzPosition] {
        ranges.map { MrzPosition(lineIndex: $0.0, startIndex: $0.1.lowerBound, endIndex: $0.1.upperBound) }
    }
}

extension MrzElement {
    /// An optional-data field that a continued document number used up.
    static let empty = MrzElement(value: "", raw: "", positions: [])
}

extension [UInt8] {
    func dropLastFillers() -> [UInt8] {
        guard let last = lastIndex(where: { $0 != mrzFiller }) else { return [] }
        return Array(self[...last])
    }
}

/// Trailing fillers dropped, inner fillers as spaces.
private func displayValue(_ raw: [UInt8]) -> String {
    String(decoding: raw.dropLastFillers().map { $0 == mrzFiller ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
}

/// A name part's words (split at fillers) joined by single spaces.
private func identifierText(_ part: ArraySlice<UInt8>) -> String {
    part.split(separator: mrzFiller).map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
}
