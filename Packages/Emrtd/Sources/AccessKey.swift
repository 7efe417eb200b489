import MRZ

/// What opens the chip, as the reference's hosts write it: made without `try`, and checked when a
/// read starts (`EmrtdReader.read` throws `ReadError.InvalidArgument`, naming the field, before
/// any APDU). The read turns it into `MRZ`'s `AccessPassword`, whose bytes live in wiped
/// storage; these strings are the caller's, so printing a key shows no value.
public enum AccessKey: Sendable {
    /// Opens the chip with BAC or PACE. The document number without its check digit (padded with
    /// `<` to 9 characters, a longer one used whole); the dates YYMMDD as printed.
    case mrz(documentNumber: String, dateOfBirth: String, dateOfExpiry: String)
    /// Opens the chip with PACE only: the card access number, 6 digits.
    case can(value: String)

    /// The password the access protocols take, the fields checked.
    ///
    /// - Throws: `ReadError.InvalidArgument` naming the field that is malformed, never its value.
    public func password() throws(ReadError) -> AccessPassword {
        do throws(MRZError) {
            switch self {
            case .mrz(let documentNumber, let dateOfBirth, let dateOfExpiry):
                return try AccessPassword.mrz(
                    documentNumber: documentNumber, dateOfBirth: dateOfBirth, dateOfExpiry: dateOfExpiry)
            case .can(let value):
                return try AccessPassword.can(value: value)
            }
        } catch {
            throw ReadError(.invalidArgument, "the access key is malformed: \(error.reason)")
        }
    }
}

extension AccessKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        switch self {
        case .mrz: "AccessKey.mrz(<redacted>)"
        case .can: "AccessKey.can(<redacted>)"
        }
    }
    public var debugDescription: String { description }
    /// No children: `dump` and the debugger show the case, not the secret.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .enum) }
}

/// The `.mrz` key a parsed zone prints: the whole document number (a TD1/TD2 continuation
/// included) and the raw dates. The key's check digits are computed from these fields; a
/// document issued with a wrong printed check digit opens only with `AccessPassword.printed(in:)`
/// (the CLI's `--mrz-lines`), which keeps the printed digits.
public func accessKeyFromMrz(mrz zone: MachineReadableZone) -> AccessKey {
    let fields = zone.accessKeyFields
    return .mrz(
        documentNumber: fields.documentNumber, dateOfBirth: fields.dateOfBirth, dateOfExpiry: fields.dateOfExpiry)
}

/// Parses MRZ lines, e.g. from OCR: `MachineReadableZone.parse(lines:)` with the reference's
/// error.
///
/// - Throws: `ReadError.InvalidArgument` for another layout, unequal lines or a character outside
///   `A`–`Z`, `0`–`9`, `<`.
public func parseMrz(lines: [String]) throws(ReadError) -> MachineReadableZone {
    do throws(MRZError) {
        return try MachineReadableZone.parse(lines: lines)
    } catch {
        throw ReadError(.invalidArgument, error.reason)
    }
}
