/// Why an exchange with the card did not produce a response.
///
/// Status words are not errors at this level: a 6982 is a response. These are the failures of the
/// link itself (and of commands that cannot be put on it).
public enum TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The card left the field or the reader (removed, or reset by another process).
    case tagLost
    /// The card or reader did not answer in time.
    case timeout
    /// The caller cancelled the wait or the exchange.
    case cancelled
    /// The link failed (reader unplugged, PC/SC service gone, ...).
    case io(String)
    /// Something that must not happen on a healthy link: a malformed answer, a command that cannot
    /// be encoded, a scripted test seeing a command it did not expect.
    case unexpected(String)

    public var description: String {
        switch self {
        case .tagLost: "the card was removed or lost"
        case .timeout: "the card did not answer in time"
        case .cancelled: "cancelled"
        case .io(let detail): "card link failure: \(detail)"
        case .unexpected(let detail): "unexpected card exchange: \(detail)"
        }
    }
}
