import CodedErrors

/// Why secure messaging could not protect a command or accept a response.
///
/// Every code except `invalidCommand` and `invalidKeys` means the session is
/// broken (`breaksSession`): its keys or send sequence counter can no longer be
/// trusted to match the chip's, so the reader must run access control again
/// (BAC or PACE) for fresh keys rather than limp on. The session remembers the
/// failure and refuses further commands with `sessionBroken`.
public struct SecureMessagingError: CodedError, Hashable {
    public enum Code: String, ErrorCode {
        /// The command cannot be protected (already protected, too long). The session is intact.
        case invalidCommand
        /// The keys do not fit a secure messaging session. No session exists.
        case invalidKeys
        /// A DO'8E' that does not match the MAC computed over the message.
        case macInvalid
        /// A message that needed a MAC came without one (response data, a bare
        /// 9000, a protected command without DO'8E').
        case macMissing
        /// Not a well-formed sequence of SM data objects, or a cryptogram that
        /// does not decrypt to padded data.
        case malformedMessage
        /// The chip answered 6987 or 6988 in plain: it has dropped the session.
        case chipEndedSession
        /// An earlier failure broke this session; `reason` repeats it.
        case sessionBroken
        /// The link failed mid-exchange (the channel reported it as
        /// `ChannelError.transport`); whether the chip counted the command is unknown.
        case transport
    }

    public let code: Code
    public let reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// Whether the reader must establish new session keys before sending more.
    public var breaksSession: Bool { code != .invalidCommand && code != .invalidKeys }

    public var description: String { "secure messaging (\(code.rawValue)): \(reason)" }
}
