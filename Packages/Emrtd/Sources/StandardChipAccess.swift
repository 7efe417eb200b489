import AccessControl
import ICAO
import LDS
import MRZ
import Secrets
import SecureMessaging
import Synchronization
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
        let session: ChipSession
        do throws(AccessControlError) {
            session = try ChipAccess.open(
                transport, accessKey: accessKey, preferences: preferences, random: random, observer: observer,
                log: log)
        } catch {
            if let transportError = error.transportError {
                throw ReadError(transport: transportError, during: error.description)
            }
            throw ReadError(.accessControl, error.description)
        }
        return OpenedChip(
            files: SessionFileReader(session.fileReader), access: session.access, cardAccess: session.cardAccess,
            cardSecurity: session.cardSecurity, channel: session.channel, warnings: session.warnings)
    }
}

/// `AccessControl.FileReader` behind the `ElementaryFileReader` seam: its Le ladder is state
/// kept for the whole session, so it lives behind a lock. The reader gives the outcome itself;
/// a link failure becomes the read's error.
final class SessionFileReader: ElementaryFileReader {
    private let reader: Mutex<FileReader>

    init(_ reader: FileReader) { self.reader = Mutex(reader) }

    func read(_ kind: LDSFileKind) throws(ReadError) -> FileReadResult<[UInt8]> {
        do throws(TransportError) {
            return try reader.withLock { reader throws(TransportError) in try reader.outcome(of: kind) }
        } catch {
            throw ReadError(transport: error, during: "reading \(kind.rawValue)")
        }
    }
}
