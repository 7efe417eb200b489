extension MachineReadableZone {
    /// Parses a machine readable zone from its printed lines (`Emrtd`'s `parseMrz(lines:)` is this
    /// with the reference's error, `ReadError.InvalidArgument`).
    ///
    /// Each line is trimmed of surrounding whitespace and upper-cased. 3 lines of 30 characters are
    /// TD1, 2 of 36 TD2 (MRV-B when the first is `V`), 2 of 44 TD3 (MRV-A when the first is `V`).
    /// Check digits that do not match are reported (`isValid`), not thrown: the zone is still read.
    ///
    /// - Throws: `MRZError` `.invalidArgument` for any other shape, lines of unequal length, or a
    ///   character outside `A`–`Z`, `0`–`9`, `<`.
    public static func parse(lines: [String]) throws(MRZError) -> MachineReadableZone {
        guard (2...3).contains(lines.count) else {
            throw .invalidArgument("an MRZ has 2 or 3 lines; got \(lines.count)")
        }
        let normalized = lines.map { $0.trimmingWhitespace().uppercased() }
        let text = try ZoneText(validating: normalized)
        let isVisa = text.lines[0].first == UInt8(ascii: "V")
        let type: TravelDocumentType
        let layout: MachineReadableZone.Layout
        switch (text.lines.count, text.lines[0].count, isVisa) {
        case (3, 30, _): (type, layout) = (.td1, .td1(readTd1(text)))
        case (2, 36, false): (type, layout) = (.td2, .td2(readTd2(text, visa: false)))
        case (2, 36, true): (type, layout) = (.mrvB, .td2(readTd2(text, visa: true)))
        case (2, 44, false): (type, layout) = (.td3, .td3(readTd3(text, visa: false)))
        case (2, 44, true): (type, layout) = (.mrvA, .td3(readTd3(text, visa: true)))
        default:
            let count = text.lines.count
            throw .invalidArgument(
                "an MRZ has 3 lines of 30, 2 of 36 or 2 of 44 characters; got \(count) line\(count == 1 ? "" : "s") of \(text.lines[0].count)"
            )
        }
        return MachineReadableZone(lines: normalized, travelDocumentType: type, layout: layout)
    }

    /// Parses a zone stored as one unbroken string, as DG1 holds it (ICAO 9303-10 §4.7.1, tag
    /// `5F1F`): 90 characters are TD1, 72 TD2 or MRV-B, 88 TD3 or MRV-A.
    ///
    /// - Throws: `MRZError` `.invalidArgument` for any other length, and as `parse(lines:)`.
    public static func parse(unbrokenText text: String) throws(MRZError) -> MachineReadableZone {
        let characters = Array(text.trimmingWhitespace())
        let lineLengths = [90: 30, 72: 36, 88: 44]
        guard let lineLength = lineLengths[characters.count] else {
            throw .invalidArgument("an unbroken MRZ has 90, 72 or 88 characters; got \(characters.count)")
        }
        let lines = stride(from: 0, to: characters.count, by: lineLength).map {
            String(characters[$0..<($0 + lineLength)])
        }
        return try parse(lines: lines)
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and line breaks (the parser needs no Foundation).
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}

/// ICAO 9303-5 §4.2.2.
private func readTd1(_ text: ZoneText) -> Td1MachineReadableZone {
    let (documentNumber, lineOneOptional) = text.documentNumber(line: 0, start: 5, continuation: 15...29)
    return Td1MachineReadableZone(
        documentCode: text.element(0, 0...1),
        issuingStateOrOrganization: text.element(0, 2...4),
        documentNumber: documentNumber,
        optionalData: [lineOneOptional, text.element(1, 18...28)],
        dateOfBirth: text.date(1, start: 0),
        sex: text.element(1, 7...7),
        dateOfExpiry: text.date(1, start: 8),
        nationality: text.element(1, 15...17),
        compositeCheckDigit: text.checkDigit(
            line: 1, column: 29,
            over: [(0, 5...29), (1, 0...6), (1, 8...14), (1, 18...28)]
        ),
        name: text.name(2, 0...29)
    )
}

/// ICAO 9303-6 §4.2.2; MRV-B (9303-7 §5.2) has 8 optional characters and no composite.
private func readTd2(_ text: ZoneText, visa: Bool) -> Td2MachineReadableZone {
    let (documentNumber, optionalData) =
        visa
        ? (text.documentNumber(line: 1, start: 0, continuation: nil).0, text.element(1, 28...35))
        : text.documentNumber(line: 1, start: 0, continuation: 28...34)
    return Td2MachineReadableZone(
        documentCode: text.element(0, 0...1),
        issuingStateOrOrganization: text.element(0, 2...4),
        name: text.name(0, 5...35),
        documentNumber: documentNumber,
        nationality: text.element(1, 10...12),
        dateOfBirth: text.date(1, start: 13),
        sex: text.element(1, 20...20),
        dateOfExpiry: text.date(1, start: 21),
        optionalData: optionalData,
        compositeCheckDigit: visa
            ? nil
            : text.checkDigit(
                line: 1, column: 35,
                over: [(1, 0...9), (1, 13...19), (1, 21...34)]
            )
    )
}

/// ICAO 9303-4 §4.2.2; MRV-A (9303-7 §4.2) has 16 optional characters and no check digits for them
/// (the reference's empty `checkDigit.value`, valid, positioned over the field).
private func readTd3(_ text: ZoneText, visa: Bool) -> Td3MachineReadableZone {
    let optional = text.element(1, visa ? 28...43 : 28...41)
    let optionalCheckDigit =
        visa
        ? CheckDigit(value: "", isValid: true, position: StringPosition(line: 1, columns: 28...43))
        : text.checkDigit(line: 1, column: 42, over: [(1, 28...41)], fillerValidWhenEmpty: true)
    return Td3MachineReadableZone(
        documentCode: text.element(0, 0...1),
        issuingStateOrOrganization: text.element(0, 2...4),
        name: text.name(0, 5...43),
        passportNumber: text.documentNumber(line: 1, start: 0, continuation: nil).0,
        nationality: text.element(1, 10...12),
        dateOfBirth: text.date(1, start: 13),
        sex: text.element(1, 20...20),
        dateOfExpiry: text.date(1, start: 21),
        personalNumberOrOtherOptionalData: ElementWithCheckDigit(
            value: optional.value, raw: optional.raw, positions: optional.positions, checkDigit: optionalCheckDigit),
        compositeCheckDigit: visa
            ? nil
            : text.checkDigit(
                line: 1, column: 43,
                over: [(1, 0...9), (1, 13...19), (1, 21...42)]
            )
    )
}
