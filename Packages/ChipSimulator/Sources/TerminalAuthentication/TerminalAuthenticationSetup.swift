import CVCertificates

/// The chip's side of Extended Access Control's Terminal Authentication: its trust point (the
/// CVCA certificate whose key checks the first certificate a terminal presents; EF.CVCA names it)
/// and its current date, which verified certificates move forward as TR-03110 says.
public struct TerminalAuthenticationSetup: Sendable {
    public var trustPoint: CVCertificate
    public var currentDate: CVCDate

    public init(trustPoint: CVCertificate, currentDate: CVCDate) {
        self.trustPoint = trustPoint
        self.currentDate = currentDate
    }

    /// EF.CVCA (FID 011C, SFI 1C): the trust point's CHR as a CAR (42), padded with zeros to 36
    /// bytes (9303-10 §4.6.4).
    public var cvcaFile: [UInt8] {
        let reference = [0x42, UInt8(trustPoint.holderReference.utf8.count)] + Array(trustPoint.holderReference.utf8)
        return reference + [UInt8](repeating: 0, count: max(0, 36 - reference.count))
    }
}
