import Transport

/// A protocol handler's answer to one command and what it does to the chip's state.
struct ProtocolOutcome: Sendable {
    /// What happens to secure messaging once the answer has left the chip. The answer itself is
    /// protected by whatever session protected the command (none for a plain command).
    enum SessionChange: Sendable {
        case keep
        /// A new session takes over (BAC, PACE).
        case establish(ChipSession)
        /// The current session's keys and cipher are replaced in place, the counter restarting at
        /// zero (Chip Authentication); with no session active, one starts with these keys.
        case replaceKeys(SessionKeys)
        /// Secure messaging ends (and with it the access rights).
        case end
    }

    var response: ResponseAPDU
    var session: SessionChange = .keep
    /// Whether the protocol opened the application's files (BAC, PACE). Access lasts as long as
    /// the secure-messaging session, so it is granted only when a session stands after the answer.
    var grantsAccess = false
    /// Protected files the protocol opened (Terminal Authentication: DG3, DG4 by the terminal's
    /// CHAT), for as long as the session lasts.
    var unlocksFiles: Set<UInt16> = []

    init(_ response: ResponseAPDU, session: SessionChange = .keep, grantsAccess: Bool = false) {
        self.response = response
        self.session = session
        self.grantsAccess = grantsAccess
    }

    /// A bare status word, nothing else changed.
    init(_ status: StatusWord) {
        self.init(ResponseAPDU(statusWord: status))
    }
}
