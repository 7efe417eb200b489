import CryptoPrimitives
import Secrets

/// The card access number printed on the document, PACE's other password (ICAO 9303-11 §9.7.3:
/// π is the CAN's characters as they are). Kept as a secret: wiped on release, redacted in
/// descriptions.
public struct CardAccessNumber: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    let digits: SecretBytes

    /// A CAN of decimal digits (six on documents; any non-empty length up to 16 here, so tests can
    /// try others). Nil for anything else.
    public init?(_ value: String) {
        guard (1...16).contains(value.count), value.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        var bytes = Array(value.utf8)
        digits = SecretBytes(consuming: &bytes)
    }

    /// The PACE password π for the CAN.
    func pacePassword() -> SecretBytes { digits }

    public var description: String { "CardAccessNumber(redacted)" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
