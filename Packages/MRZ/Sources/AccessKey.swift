import Secrets

/// What opens a chip: the MRZ's document number and dates (BAC, PACE with the MRZ) or the card
/// access number (PACE with the CAN). Built only through the validating factories, so an
/// `AccessKey` that exists is well-formed before any APDU is sent.
///
/// It is a secret: its description is redacted, and the password bytes live in storage that is
/// zeroed when the last copy of the key goes away.
public struct AccessKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// From the MRZ (PACE password reference 1, or BAC).
        case mrz
        /// The card access number (PACE password reference 2).
        case can
    }

    public let kind: Kind
    private let password: SecretBytes

    /// - Parameters:
    ///   - documentNumber: trimmed and upper-cased; `A`–`Z`, `0`–`9`, `<` only; padded with `<`
    ///     to 9 characters, a longer number is used whole.
    ///   - dateOfBirth, dateOfExpiry: YYMMDD, exactly 6 characters, each a digit or `<`.
    /// - Throws: `MRZError` `.invalidArgument`, naming the field but not its value.
    public static func mrz(documentNumber: String, dateOfBirth: String, dateOfExpiry: String) throws(MRZError)
        -> AccessKey
    {
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
        var information = mrzInformation(documentNumber: number, dateOfBirth: birth, dateOfExpiry: expiry)
        return AccessKey(kind: .mrz, wiping: &information)
    }

    /// - Parameter value: exactly 6 digits (surrounding whitespace is ignored).
    public static func can(value: String) throws(MRZError) -> AccessKey {
        var digits = Array(value.trimmingWhitespace().utf8)
        defer { digits.wipe() }
        guard digits.count == 6, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw .invalidArgument("a CAN is exactly 6 digits")
        }
        return AccessKey(kind: .can, wiping: &digits)
    }

    /// Takes the password over and wipes the array it came in.
    private init(kind: Kind, wiping password: inout [UInt8]) {
        self.kind = kind
        self.password = SecretBytes(consuming: &password)
    }

    /// Lends the password the key derivation starts from (ICAO 9303-11 §4.3.2 for BAC, §4.4.3.1
    /// for PACE): for `.mrz` the MRZ information, document number + check digit + date of birth
    /// + check digit + date of expiry + check digit (e.g. `L898902C<369080619406236`), which
    /// BAC and PACE hash with SHA-1; for `.can` the CAN's ASCII digits. Do not keep a copy.
    public func withPasswordBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try password.withUnsafeBytes(body)
    }

    public var description: String { "AccessKey.\(kind.rawValue)(<redacted>)" }
    public var debugDescription: String { description }

    public static func == (lhs: AccessKey, rhs: AccessKey) -> Bool {
        lhs.kind == rhs.kind && lhs.password == rhs.password
    }
}

/// The access key an MRZ prints: its whole document number and its two dates.
///
/// - Throws: `MRZError` `.invalidArgument` when a date holds letters (the zone itself parsed).
public func accessKeyFromMrz(mrz zone: MachineReadableZone) throws(MRZError) -> AccessKey {
    let elements = zone.common
    return try AccessKey.mrz(
        documentNumber: String(decoding: Array(elements.documentNumber.raw.utf8).dropLastFillers(), as: UTF8.self),
        dateOfBirth: elements.dateOfBirth.raw,
        dateOfExpiry: elements.dateOfExpiry.raw
    )
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

/// ICAO 9303-11 §4.3.2: each field followed by its check digit.
func mrzInformation(documentNumber: [UInt8], dateOfBirth: [UInt8], dateOfExpiry: [UInt8]) -> [UInt8] {
    var information: [UInt8] = []
    information.reserveCapacity(documentNumber.count + 15)
    for field in [documentNumber, dateOfBirth, dateOfExpiry] {
        information += field
        information.append(UInt8(ascii: "0") + mrzCheckDigit(of: field))
    }
    return information
}
