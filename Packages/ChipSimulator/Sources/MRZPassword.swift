import CryptoPrimitives
import Secrets

/// The MRZ password of BAC and PACE: the document number, date of birth and date of expiry with
/// their check digits (ICAO 9303-11 §9.7.2), kept as a secret (wiped on release, redacted in
/// descriptions). The check digits are computed here, so this works for any value a test chooses;
/// `init(machineReadableZone:)` takes them as printed in a DG1 instead.
public struct MRZPassword: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// `documentNumber + check digit + dateOfBirth + check digit + dateOfExpiry + check digit`,
    /// the document number padded with `<` to at least nine characters.
    let keySeedInput: SecretBytes

    /// Dates as printed (YYMMDD).
    public init(documentNumber: String, dateOfBirth: String, dateOfExpiry: String) {
        let number =
            documentNumber.count < 9
            ? documentNumber + String(repeating: "<", count: 9 - documentNumber.count) : documentNumber
        var text = Array([number, dateOfBirth, dateOfExpiry].map { $0 + String(Self.checkDigit($0)) }.joined().utf8)
        keySeedInput = SecretBytes(consuming: &text)
    }

    /// Takes the fields and their printed check digits from a TD1, TD2 or TD3 MRZ (lines joined
    /// without separators). Nil when the text is no MRZ of those sizes.
    public init?(machineReadableZone mrz: String) {
        let characters = Array(mrz)
        func field(_ start: Int, _ length: Int) -> String { String(characters[start..<(start + length)]) }
        let text: String
        switch characters.count {
        case 90:  // TD1: the document number is on line 1, the dates on line 2
            text = field(5, 10) + field(30, 7) + field(38, 7)
        case 72, 88:  // TD2, TD3: all on line 2
            let line2 = characters.count / 2
            text = field(line2, 10) + field(line2 + 13, 7) + field(line2 + 21, 7)
        default:
            return nil
        }
        var bytes = Array(text.utf8)
        keySeedInput = SecretBytes(consuming: &bytes)
    }

    /// The PACE password π for the MRZ: SHA-1 of the MRZ information (9303-11 §9.7.3).
    func pacePassword() -> SecretBytes {
        var digest = keySeedInput.withUnsafeBytes { HashAlgorithm.sha1.hash($0) }
        return SecretBytes(consuming: &digest)
    }

    /// BAC's K_seed: the first 16 bytes of SHA-1 of the MRZ information (9303-11 §9.7.2).
    func basicAccessControlSeed() -> SecretBytes { pacePassword().prefix(16) }

    public var description: String { "MRZPassword(redacted)" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }

    /// The 7-3-1 weighted check digit of 9303-3 §4.9.
    static func checkDigit(_ text: String) -> Int {
        let weights = [7, 3, 1]
        var sum = 0
        for (index, character) in text.enumerated() {
            let value: Int
            if let digit = character.wholeNumberValue, character.isASCII {
                value = digit
            } else if let ascii = character.asciiValue, character.isUppercase {
                value = Int(ascii) - 55
            } else {
                value = 0  // '<' and anything else count as zero
            }
            sum += value * weights[index % 3]
        }
        return sum % 10
    }
}
