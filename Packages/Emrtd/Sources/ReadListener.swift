import LDS

/// Progress of a read, for a UI. Calls come on the reading thread, in this order:
/// `onAccessEstablishmentStarted`, then `onElementaryFilesReadingProgressUpdated` once EF.COM
/// and EF.SOD are in (id `sod`) and as each data group's bytes arrive, the last call with 100, then
/// `onDataAuthenticationStarted`. Every method has an empty default.
public protocol ReadListener: AnyObject, Sendable {
    /// Access control (PACE or BAC) begins: the chip answered and is being opened.
    func onAccessEstablishmentStarted()
    /// Bytes of `id` were read; `totalProgressPercentage` (0–100, `Int32` as the reference's) is
    /// the share, by size, of EF.COM, EF.SOD and the readable data groups read so far.
    func onElementaryFilesReadingProgressUpdated(id: LDSFileKind, totalProgressPercentage: Int32)
    /// Every file is read; Passive Authentication begins.
    func onDataAuthenticationStarted()
}

extension ReadListener {
    public func onAccessEstablishmentStarted() {}
    public func onElementaryFilesReadingProgressUpdated(id: LDSFileKind, totalProgressPercentage: Int32) {}
    public func onDataAuthenticationStarted() {}
}
