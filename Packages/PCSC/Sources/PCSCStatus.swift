import CPCSCLite
import Transport

/// Translates a pcsc-lite return code into the transport's error vocabulary, with the PC/SC
/// name of the code kept in the detail so a user can search for it.
func transportError(_ code: LONG, while action: String) -> TransportError {
    switch code {
    case SCARD_W_REMOVED_CARD, SCARD_E_NO_SMARTCARD, SCARD_W_RESET_CARD, SCARD_W_UNPOWERED_CARD:
        return .TagLost
    case SCARD_E_TIMEOUT:
        return .Timeout
    case SCARD_E_CANCELLED:
        return .Cancelled
    case SCARD_E_NO_SERVICE, SCARD_E_SERVICE_STOPPED:
        return .Io(detail: "the PC/SC service is not running (start pcscd) while \(action)")
    case SCARD_E_NO_READERS_AVAILABLE:
        return .Io(detail: "no PC/SC reader is connected")
    case SCARD_E_SHARING_VIOLATION:
        return .Io(detail: "the card is in use by another program while \(action)")
    case SCARD_E_READER_UNAVAILABLE, SCARD_E_UNKNOWN_READER:
        return .Io(detail: "the reader is no longer available while \(action)")
    case SCARD_W_UNRESPONSIVE_CARD, SCARD_W_UNSUPPORTED_CARD:
        return .Io(detail: "the card does not answer the reader (\(describe(code))) while \(action)")
    default:
        return .Io(detail: "\(describe(code)) while \(action)")
    }
}

/// `pcsc-lite`'s text for a return code and the code in hex: `Card was removed. (0x80100069)`.
func describe(_ code: LONG) -> String {
    let text = pcsc_stringify_error(code).map { String(cString: $0) } ?? "unknown PC/SC error"
    let hex = String(UInt32(truncatingIfNeeded: code), radix: 16, uppercase: true)
    return "\(text) (0x\(String(repeating: "0", count: max(0, 8 - hex.count)) + hex))"
}
