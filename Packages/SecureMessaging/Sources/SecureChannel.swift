import Synchronization
import Transport

/// The `CommandChannel` after BAC or PACE: protects every command with a `SecureMessagingSession`
/// and verifies every answer, so the layers above send plain APDUs.
///
/// Put the `LoggingTransport` *below* this channel (as its `base`) so the log holds ciphertext
/// only.
///
/// A link failure is `ChannelError.transport`, a secure messaging failure
/// `ChannelError.secureMessaging`. Either breaks the session: every later command fails fast;
/// establish access again and make a new channel.
///
/// Chip Authentication re-keys a live channel: the chip answers its last command under the old
/// keys, then both sides switch (`replaceSession`), so whatever reads through this channel (the
/// file reader and the Le it learned) carries on.
public final class SecureChannel: CommandChannel {
    public let base: any APDUTransport
    private let session: Mutex<SecureMessagingSession>
    /// Sees each command before it is protected and each answer once verified (the debug log).
    public let observer: (any PlainAPDUObserver)?

    public init(base: any APDUTransport, session: SecureMessagingSession, observer: (any PlainAPDUObserver)? = nil) {
        self.base = base
        self.session = Mutex(session)
        self.observer = observer
    }

    public var supportsExtendedLength: Bool { base.supportsExtendedLength }

    public var answerBlockSize: Int? { currentSession.cipher.blockSize }

    /// Why the session broke, once it has.
    public var failure: SecureMessagingError? { session.withLock { $0.failure } }

    /// A copy of the current session state (keys and SSC), e.g. to hand the
    /// session to another channel.
    public var currentSession: SecureMessagingSession { session.withLock { $0 } }

    /// Continues with `newSession` (new keys, possibly another cipher; its SSC, zero
    /// after Chip Authentication) from the next command on. Call it after the answer
    /// to the command that agreed the new keys was unwrapped under the old ones. A
    /// session broken before stays broken: its failure is not forgotten by re-keying.
    public func replaceSession(with newSession: SecureMessagingSession) throws(SecureMessagingError) {
        try session.withLock { current throws(SecureMessagingError) in
            if let failure = current.failure {
                throw SecureMessagingError(.sessionBroken, "cannot re-key a broken session: \(failure.reason)")
            }
            current = newSession
        }
    }

    /// Sends `command` protected and returns the verified, decrypted response.
    /// A link failure breaks the session too: whether the chip counted the
    /// command (and advanced its SSC) is unknown.
    public func send(_ command: CommandAPDU) throws(ChannelError) -> ResponseAPDU {
        let extendedLengthAvailable = base.supportsExtendedLength
        observer?.willProtect(command)
        let plain = try session.withLock { session throws(ChannelError) -> ResponseAPDU in
            let protected: CommandAPDU
            do throws(SecureMessagingError) {
                protected = try session.wrap(command, extendedLengthAvailable: extendedLengthAvailable)
            } catch {
                throw .secureMessaging(error)
            }
            let response: ResponseAPDU
            do throws(TransportError) {
                response = try base.transmit(protected)
            } catch {
                session.markBroken(SecureMessagingError(.transport, "\(error)"))
                throw .transport(error)
            }
            do throws(SecureMessagingError) {
                return try session.unwrap(response)
            } catch {
                throw .secureMessaging(error)
            }
        }
        observer?.didUnprotect(plain, of: command)
        return plain
    }
}
