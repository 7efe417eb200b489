import SecureMessaging
import Transport

/// A command of the chip protocols under the read's secure messaging, its failures told apart:
/// the link (`.transport`) from a chip that no longer answers under the session's keys
/// (`.secureMessaging`).
enum ChipCommand {
    static func exchange(_ command: CommandAPDU, over channel: any CommandChannel, step: String)
        throws(ChipAuthenticationError) -> ResponseAPDU
    {
        do throws(ChannelError) {
            return try channel.send(command)
        } catch {
            switch error {
            case .transport(let transportError):
                throw ChipAuthenticationError(
                    .transport, "\(step): \(transportError)", transportError: transportError)
            case .secureMessaging(let failure):
                throw ChipAuthenticationError(.secureMessaging, "\(step): \(failure.reason)")
            }
        }
    }
}
