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
    func element(_ ranges: [(Int, ClosedRange<Int>)]) -> Element {
        let raw = ranges.flatMap { self.raw($0.0, $0.1) }
        return Element(
            value: displayValue(raw), raw: String(decoding: raw, as: UTF8.self), positions: positions(ranges))
    }

    func element(_ line: Int, _ columns: ClosedRange<Int>) -> Element {
        element([(line, columns)])
    }

    /// The check digit at `column` of `line` over the data in `ranges`. With `fillerValidWhenEmpty`
    /// a `<` is accepted over all-filler data (ICAO 9303-4 §4.2.2.3: an unused personal number).
    func checkDigit(
        line: Int,
        column: Int,
        over ranges: [(Int, ClosedRange<Int>)],
        fillerValidWhenEmpty: Bool = false
    ) -> CheckDigit {
        let data = ranges.flatMap { raw($0.0, $0.1) }
        let printed = lines[line][column]
        let isValid =
            printed == UInt8(ascii: "0") + mrzCheckDigit(of: data)
            || (fillerValidWhenEmpty && printed == mrzFiller && data.allSatisfy { $0 == mrzFiller })
        return CheckDigit(
            value: String(decoding: [printed], as: UTF8.self), isValid: isValid,
            position: StringPosition(line: line, columns: column...column))
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
    ) -> (ElementWithCheckDigit, Element) {
        let principal = (line, start...(start + 8))
        let checkColumn = start + 9
        guard let optional = continuation else {
            return (withCheckDigit([principal], checkColumn: checkColumn, line: line), Element.empty)
        }
        let continued = optional.prefix { lines[line][$0] != mrzFiller }
        guard lines[line][checkColumn] == mrzFiller, let lastContinued = continued.last else {
            return (withCheckDigit([principal], checkColumn: checkColumn, line: line), element(line, optional))
        }
        let extraRanges = lastContinued > optional.lowerBound ? [(line, optional.lowerBound...(lastContinued - 1))] : []
        let number = withCheckDigit([principal] + extraRanges, checkColumn: lastContinued, line: line)
        let restStart = lastContinued + 2
        let rest = restStart <= optional.upperBound ? element(line, restStart...optional.upperBound) : Element.empty
        return (number, rest)
    }

    private func withCheckDigit(
        _ ranges: [(Int, ClosedRange<Int>)],
        checkColumn: Int,
        line: Int
    ) -> ElementWithCheckDigit {
        let plain = element(ranges)
        return ElementWithCheckDigit(
            value: plain.value,
            raw: plain.raw,
            positions: plain.positions,
            checkDigit: checkDigit(line: line, column: checkColumn, over: ranges)
        )
    }

    /// A YYMMDD date at `start` with its check digit right after it.
    func date(_ line: Int, start: Int) -> DateElementWithCheckDigit {
        let plain = element(line, start...(start + 5))
        let digits = raw(line, start...(start + 5))
        func part(_ offset: Int) -> UInt32? {
            let pair = digits[offset...(offset + 1)]
            guard pair.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
            return pair.reduce(0) { $0 * 10 + UInt32($1 - UInt8(ascii: "0")) }
        }
        return DateElementWithCheckDigit(
            date: MrzDate(year: part(0), month: part(2), day: part(4)),
            value: plain.value,
            raw: plain.raw,
            positions: plain.positions,
            checkDigit: checkDigit(line: line, column: start + 6, over: [(line, start...(start + 5))])
        )
    }

    /// The name field, split at the first `<<` (ICAO 9303-3 §4.6). Each identifier's value is its
    /// words joined by single spaces; its `raw` and position run from the field's start to that
    /// `<<` (primary) or from after it to the field's end (secondary), or over the whole field
    /// when there is no `<<`. An identifier with no letters is nil.
    func name(_ line: Int, _ columns: ClosedRange<Int>) -> NameElement {
        let plain = element(line, columns)
        let printed = raw(line, columns)
        let used = printed.dropLastFillers()
        var primary = used[...]
        var secondary: ArraySlice<UInt8> = []
        if let separator = used.indices.dropLast().first(where: { used[$0] == mrzFiller && used[$0 + 1] == mrzFiller })
        {
            primary = used[..<separator]
            secondary = used[(separator + 2)...]
        }
        let separator =
            printed.indices.dropLast().first { printed[$0] == mrzFiller && printed[$0 + 1] == mrzFiller }
            ?? printed.count
        func identifier(_ words: ArraySlice<UInt8>, _ range: Range<Int>) -> Element? {
            let value = identifierText(words)
            guard !value.isEmpty, !range.isEmpty else { return nil }
            let start = columns.lowerBound + range.lowerBound
            return Element(
                value: value, raw: String(decoding: printed[range], as: UTF8.self),
                positions: [StringPosition(line: line, columns: start...(start + range.count - 1))])
        }
        return NameElement(
            value: plain.value,
            raw: plain.raw,
            positions: plain.positions,
            primaryIdentifier: identifier(primary, 0..<separator),
            secondaryIdentifier: identifier(secondary, min(separator + 2, printed.count)..<printed.count)
        )
    }

    private func positions(_ ranges: [(Int, ClosedRange<Int>)]) -> [StringPosition] {
        ranges.map { StringPosition(line: $0.0, columns: $0.1) }
    }
}

extension Element {
    /// An optional-data field that a continued document number used up.
    static let empty = Element(value: "", raw: "", positions: [])
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
