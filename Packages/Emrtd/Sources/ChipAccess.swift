import AccessControl
import ICAO
import LDS
import MRZ
import SecureMessaging
import Transport

/// The two services the read takes from the access-control layer (the `AccessControl`
/// package): opening the chip (EF.CardAccess, PACE or BAC, the eMRTD application selected) and
/// reading one elementary file over the opened channel (the READ BINARY ladder with its Le
/// fallbacks). `EmrtdReader` runs everything after that: which files, in which order (`ReadPlan`),
/// progress, verdicts and the document. Tests put a scripted chip behind this seam.
public protocol ChipAccessProcedure: Sendable {
    /// Opens the chip on `transport` with `accessKey`. Steps go to `log` (never a secret); the
    /// secure channel's plain commands and answers go to `observer` (nil when nobody listens).
    /// Throws `ReadError` (`accessControl` when the key is refused or no protocol fits, a
    /// transport kind when the link fails).
    func open(
        _ transport: any APDUTransport, accessKey: AccessPassword, observer: (any PlainAPDUObserver)?,
        log: @escaping @Sendable (String) -> Void
    ) throws(ReadError) -> OpenedChip
}

/// A chip opened by access control.
public struct OpenedChip: Sendable {
    /// Reads elementary files over the secure channel access control set up.
    public var files: any ElementaryFileReader
    /// Which protocol opened the chip (and for PACE its mapping, parameters and PACE-CAM data).
    public var access: EstablishedAccess
    /// EF.CardAccess as read from the master file, nil when the chip has none.
    public var cardAccess: [UInt8]?
    /// EF.CardSecurity, read after PACE-CAM; nil otherwise.
    public var cardSecurity: [UInt8]?
    /// The secure channel the files are read over: Chip Authentication re-keys it and Active
    /// Authentication runs on it. Nil for a scripted chip that has none (the chip protocols are
    /// then not run, and the chip verdict says so).
    public var channel: SecureChannel?
    /// What access control tolerated (e.g. BAC after PACE was offered).
    public var warnings: [String]

    public init(
        files: any ElementaryFileReader, access: EstablishedAccess, cardAccess: [UInt8]? = nil,
        cardSecurity: [UInt8]? = nil, channel: SecureChannel? = nil, warnings: [String] = []
    ) {
        self.files = files
        self.access = access
        self.cardAccess = cardAccess
        self.cardSecurity = cardSecurity
        self.channel = channel
        self.warnings = warnings
    }
}

/// Reads elementary files of the eMRTD application within `kind.maximumSize`. Link failures
/// throw (`ReadError` of a transport kind, `cancelled`); what the chip answers is a result
/// (`AccessControl`'s `FileReadResult`, which its `FileReader` gives itself).
public protocol ElementaryFileReader: Sendable {
    /// The file's bytes.
    func read(_ kind: LDSFileKind) throws(ReadError) -> FileReadResult<[UInt8]>
}
