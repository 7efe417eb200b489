import Secrets

/// What opens a chip, in the form the access protocols take: the MRZ information (document
/// number, dates and check digits: BAC, PACE with the MRZ) or the card access number (PACE with
/// the CAN). Built only through the validating factories, so an `AccessPassword` that exists is
/// well-formed before any APDU is sent. `Emrtd`'s `AccessKey` (the reference's plain enum) is
/// turned into one when a read starts.
///
/// It is a secret: its description is redacted, and the password bytes live in storage that is
/// zeroed when the last copy of the key goes away.
public struct AccessPassword: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// From the MRZ (PACE password reference 1, or BAC).
        case mrz
        /// The card access number (PACE password reference 2).
        case can
    }

    /// A field of the MRZ information an access key is derived from.
    public enum Field: String, Sendable, Hashable {
        case documentNumber = "document number"
        case dateOfBirth = "date of birth"
        case dateOfExpiry = "date of expiry"
    }

    public let kind: Kind
    /// Whether the key's check digits are the ones printed in a zone (`printed(in:)`) rather
    /// than computed from the fields. A chip's key is derived from the MRZ as printed, so only
    /// a printed zone opens a document issued with a wrong check digit.
    public let usesPrintedCheckDigits: Bool
    /// The fields whose printed check digit differs from the one their text gives (empty unless
    /// `usesPrintedCheckDigits`): the key uses the printed digit, and the read says so. Field
    /// names only; no value.
    public let wrongPrintedCheckDigits: [Field]
    private let password: SecretBytes

    /// - Parameters:
    ///   - documentNumber: trimmed and upper-cased; `A`–`Z`, `0`–`9`, `<` only; padded with `<`
    ///     to 9 characters, a longer number is used whole.
    ///   - dateOfBirth: YYMMDD, exactly 6 characters, each a digit or `<`.
    ///   - dateOfExpiry: YYMMDD, exactly 6 characters, each a digit or `<`.
    /// - Throws: `MRZError` `.invalidArgument`, naming the field but not its value.
    public static func mrz(documentNumber: String, dateOfBirth: String, dateOfExpiry: String) throws(MRZError)
        -> AccessPassword
    {
        try mrz(documentNumber: documentNumber, dateOfBirth: dateOfBirth, dateOfExpiry: dateOfExpiry, printed: nil)
    }

    /// The password a zone prints: its whole document number and its two dates, each with the
    /// check digit as printed where that is a digit (the computed one otherwise, e.g. for a `<`).
    /// ICAO 9303-11 §4.3.2 takes the MRZ information from the zone, so a document issued with a
    /// wrong check digit has a chip keyed with that digit; `wrongPrintedCheckDigits` names such
    /// fields. The reference's `accessKeyFromMrz` gives the fields alone, without this.
    ///
    /// - Throws: `MRZError` `.invalidArgument` when a date holds letters (the zone itself parsed).
    public static func printed(in zone: MachineReadableZone) throws(MRZError) -> AccessPassword {
        let elements = zone.common
        let fields = zone.accessKeyFields
        return try mrz(
            documentNumber: fields.documentNumber, dateOfBirth: fields.dateOfBirth, dateOfExpiry: fields.dateOfExpiry,
            printed: [
                elements.documentNumber.checkDigit, elements.dateOfBirth.checkDigit, elements.dateOfExpiry.checkDigit,
            ])
    }

    /// The MRZ information (ICAO 9303-11 §4.3.2): each field followed by its printed check digit
    /// when `printed` gives a digit for it, by the one computed from its text otherwise.
    private static func mrz(
        documentNumber: String, dateOfBirth: String, dateOfExpiry: String, printed: [CheckDigit]?
    ) throws(MRZError) -> AccessPassword {
        var number = Array(documentNumber.trimmingWhitespace().uppercased().utf8)
        defer { number.wipe() }
        guard !number.isEmpty, number.allSatisfy(isMRZCharacter) else {
            throw .invalidArgument("the document number must be 1 or more of A-Z, 0-9 and <")
        }
        number += Array(repeating: mrzFiller, count: max(0, 9 - number.count))
        var birth = try accessKeyDate(dateOfBirth, field: "date of birth")
        defer { birth.wipe() }
        var expiry = try accessKeyDate(dateOfExpiry, field: "date of expiry")
        defer { expiry.wipe() }
        var information: [UInt8] = []
        defer { information.wipe() }
        information.reserveCapacity(number.count + 15)
        var wrong: [Field] = []
        func append(_ text: [UInt8], _ field: Field, _ index: Int) {
            information += text
            let computed = UInt8(ascii: "0") + mrzCheckDigit(of: text)
            let digit = printed.map { Array($0[index].value.utf8) } ?? []
            guard digit.count == 1, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit[0]) else {
                information.append(computed)
                return
            }
            information.append(digit[0])
            if digit[0] != computed { wrong.append(field) }
        }
        append(number, .documentNumber, 0)
        append(birth, .dateOfBirth, 1)
        append(expiry, .dateOfExpiry, 2)
        return AccessPassword(
            kind: .mrz, wiping: &information, usesPrintedCheckDigits: printed != nil, wrongPrintedCheckDigits: wrong)
    }

    /// - Parameter value: exactly 6 digits (surrounding whitespace is ignored).
    public static func can(value: String) throws(MRZError) -> AccessPassword {
        var digits = Array(value.trimmingWhitespace().utf8)
        defer { digits.wipe() }
        guard digits.count == 6, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw .invalidArgument("a CAN is exactly 6 digits")
        }
        return AccessPassword(kind: .can, wiping: &digits)
    }

    /// Takes the password over and wipes the array it came in.
    private init(
        kind: Kind, wiping password: inout [UInt8], usesPrintedCheckDigits: Bool = false,
        wrongPrintedCheckDigits: [Field] = []
    ) {
        self.kind = kind
        self.usesPrintedCheckDigits = usesPrintedCheckDigits
        self.wrongPrintedCheckDigits = wrongPrintedCheckDigits
        self.password = SecretBytes(consuming: &password)
    }

    /// Lends the password the key derivation starts from (ICAO 9303-11 §4.3.2 for BAC, §4.4.3.1
    /// for PACE): for `.mrz` the MRZ information, document number + check digit + date of birth
    /// + check digit + date of expiry + check digit (e.g. `L898902C<369080619406236`), which
    /// BAC and PACE hash with SHA-1; for `.can` the CAN's ASCII digits. Do not keep a copy.
    public func withPasswordBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try password.withUnsafeBytes(body)
    }

    public var description: String { "AccessPassword.\(kind.rawValue)(<redacted>)" }
    public var debugDescription: String { description }

    public static func == (lhs: AccessPassword, rhs: AccessPassword) -> Bool {
        lhs.kind == rhs.kind && lhs.password == rhs.password
    }
}

extension MachineReadableZone {
    /// What an access key takes from the zone (ICAO 9303-11 §4.3.2): the whole document number
    /// as printed (a TD1/TD2 continuation included, trailing fillers dropped, inner ones kept)
    /// and the two dates as printed, fillers kept.
    public var accessKeyFields: (documentNumber: String, dateOfBirth: String, dateOfExpiry: String) {
        let elements = common
        return (
            String(decoding: Array(elements.documentNumber.raw.utf8).dropLastFillers(), as: UTF8.self),
            elements.dateOfBirth.raw, elements.dateOfExpiry.raw
        )
    }
}

private func accessKeyDate(_ text: String, field: String) throws(MRZError) -> [UInt8] {
    var date = Array(text.trimmingWhitespace().utf8)
    let allowed = UInt8(ascii: "0")...UInt8(ascii: "9")
    guard date.count == 6, date.allSatisfy({ allowed.contains($0) || $0 == mrzFiller }) else {
        date.wipe()
        throw .invalidArgument("the \(field) must be YYMMDD: 6 characters, each a digit or <")
    }
    return date
}
