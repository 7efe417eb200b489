import AccessControl
import MRZ
import Secrets
import Transport

/// The chip access of the `AccessControl` package (EF.CardAccess, PACE offers by preference, BAC;
/// the READ BINARY ladder) as the read uses it. `EmrtdReader(config:)` reads with this.
public struct StandardChipAccess: ChipAccessProcedure {
    public let preferences: ChipAccessPreferences
    /// Nonces and ephemeral keys of the access protocols.
    public let random: RandomSource

    public init(preferences: ChipAccessPreferences = ChipAccessPreferences(), random: RandomSource = .system) {
        self.preferences = preferences
        self.random = random
    }

    public func open(
        _ transport: any APDUTransport, accessKey: AccessPassword, observer: (any PlainAPDUObserver)?,
        log: @escaping @Sendable (String) -> Void
    ) throws(ReadError) -> OpenedChip {
        do throws(AccessControlError) {
            return try ChipAccess.open(
                transport, accessKey: accessKey, preferences: preferences, random: random, observer: observer,
                log: log)
        } catch {
            if let transportError = error.transportError {
                throw ReadError(transport: transportError, during: error.description)
            }
            throw ReadError(.accessControl, error.description)
        }
    }
}
