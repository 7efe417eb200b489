import SecureMessaging
import Transport

/// A command of the chip protocols under the read's secure messaging, its failures told apart:
/// the link (`.transport`) from a chip that no longer answers under the session's keys
/// (`.secureMessaging`).
enum ChipCommand {
    static func exchange(_ command: CommandAPDU, over channel: SecureChannel, step: String)
        throws(ChipAuthenticationError) -> ResponseAPDU
    {
        do throws(SecureMessagingError) {
            return try channel.exchange(command)
        } catch {
            if let transportError = error.transportError {
                throw ChipAuthenticationError(
                    .transport, "\(step): \(transportError)", transportError: transportError)
            }
            throw ChipAuthenticationError(.secureMessaging, "\(step): \(error.reason)")
        }
    }
}
