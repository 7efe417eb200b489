// swift-format-ignore: AlwaysUseLowerCamelCase
/// Why an exchange with the card did not produce a response: the reference's `TransportError`,
/// case for case (its Swift error enums keep UpperCamel cases), thrown by a `APDUTransport`.
///
/// Status words are not errors at this level: a 6982 is a response. These are the failures of the
/// link itself (and of commands that cannot be put on it).
public enum TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The card left the field or the reader (removed, or reset by another process).
    case TagLost
    /// The card or reader did not answer in time.
    case Timeout
    /// The caller cancelled the wait or the exchange.
    case Cancelled
    /// The link failed (reader unplugged, PC/SC service gone, ...).
    case Io(detail: String)
    /// Something that must not happen on a healthy link: a malformed answer, a command that cannot
    /// be encoded, a scripted test seeing a command it did not expect.
    case Unexpected(detail: String)

    public var description: String {
        switch self {
        case .TagLost: "the card was removed or lost"
        case .Timeout: "the card did not answer in time"
        case .Cancelled: "cancelled"
        case .Io(let detail): "card link failure: \(detail)"
        case .Unexpected(let detail): "unexpected card exchange: \(detail)"
        }
    }
}
