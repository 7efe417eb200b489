import AccessControl
import MRZ
import Transport

/// What the read takes from the access-control layer (the `AccessControl` package): the chip
/// opened (EF.CardAccess, PACE or BAC, the eMRTD application selected), as `AccessControl`'s
/// `OpenedChip`, with its secure channel and the file reader over it (the READ BINARY ladder with
/// its Le fallbacks). `EmrtdReader` runs everything after that: which files, in which order
/// (`ReadPlan`), progress, verdicts and the document. Tests open a chip of their own here.
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
