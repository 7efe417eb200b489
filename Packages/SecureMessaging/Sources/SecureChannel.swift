import Synchronization
import Transport

/// A `CardTransport` that protects every command with a `SecureMessagingSession`
/// and verifies every response, so the layers above send plain APDUs.
///
/// Put the `LoggingTransport` *below* this channel (as its `base`) so the log
/// holds ciphertext only.
///
/// `exchange(_:)` reports failures as `SecureMessagingError`. `transmit(_:)`,
/// the `CardTransport` requirement, can only throw `TransportError`: there a
/// secure messaging failure becomes `TransportError.unexpected` and the typed
/// error stays available as `failure`. Either way, once the session is broken
/// every later command fails fast; establish access again and make a new channel.
public final class SecureChannel: CardTransport {
    public let base: any CardTransport
    private let session: Mutex<SecureMessagingSession>

    public init(base: any CardTransport, session: SecureMessagingSession) {
        self.base = base
        self.session = Mutex(session)
    }

    public var supportsExtendedLength: Bool { base.supportsExtendedLength }

    /// Why the session broke, once it has.
    public var failure: SecureMessagingError? { session.withLock { $0.failure } }

    /// A copy of the current session state (keys and SSC), e.g. to hand the
    /// session to another channel.
    public var currentSession: SecureMessagingSession { session.withLock { $0 } }

    /// Sends `command` protected and returns the verified, decrypted response.
    /// A link failure breaks the session too: whether the chip counted the
    /// command (and advanced its SSC) is unknown.
    public func exchange(_ command: CommandAPDU) throws(SecureMessagingError) -> ResponseAPDU {
        let extendedLengthAvailable = base.supportsExtendedLength
        return try session.withLock { session throws(SecureMessagingError) -> ResponseAPDU in
            let protected = try session.wrap(command, extendedLengthAvailable: extendedLengthAvailable)
            let response: ResponseAPDU
            do throws(TransportError) {
                response = try base.transmit(protected)
            } catch {
                let failure = SecureMessagingError(.transport, "\(error)", transportError: error)
                session.markBroken(failure)
                throw failure
            }
            return try session.unwrap(response)
        }
    }

    public func transmit(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU {
        do throws(SecureMessagingError) {
            return try exchange(command)
        } catch {
            throw error.transportError ?? .unexpected(error.description)
        }
    }
}
