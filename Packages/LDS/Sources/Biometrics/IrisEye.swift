/// Which eye an iris image shows: the feature identifier of an ISO/IEC 19794-6:2005 biometric
/// subtype header and the eye label of ISO/IEC 39794-6, which share their codes.
public enum IrisEye: Int, Sendable, CaseIterable {
    case undefined = 0
    case right = 1
    case left = 2

    /// The case's name, as JSON shows it.
    public var name: String { String(describing: self) }
}
