import ASN1
import CodedErrors

/// The one error this package throws: a machine-readable `code` and a reason that
/// says which structure was wrong and how.
public typealias CMSError = PackageError<CMSErrorCode>

/// What went wrong, for `CMSError`.
public enum CMSErrorCode: String, ErrorCode {
    /// The bytes are not the ASN.1 structure expected (from `ASN1Error`, or a field's value).
    case malformed
    /// A well-formed structure using an algorithm, curve or type this package does not know.
    case unsupported
    /// A public key that cannot be used (bad modulus, point not on its curve, …).
    case invalidKey
    /// Neither PEM certificates nor a DER certificate, master list or EF.SOD.
    case unrecognizedInput
    /// No default CSCA bundle exists in any of the places looked at.
    case notFound
    /// A file named (by `EMRTD_CSCA_BUNDLE`) does not exist or cannot be read.
    case unreadableFile
}

extension CMSError {
    /// Wraps a parse failure of `what`.
    static func malformed(_ what: String, _ error: ASN1Error) -> CMSError {
        // The ASN.1 reason often names the structure already ("Certificate: expected tag 30"):
        // say it once.
        CMSError(.malformed, error.reason.hasPrefix("\(what): ") ? error.reason : "\(what): \(error.reason)")
    }
}

/// Runs an ASN.1 reading step, turning its `ASN1Error` into a `CMSError` that names `what`.
func reading<Value>(_ what: String, _ body: () throws(ASN1Error) -> Value) throws(CMSError) -> Value {
    do {
        return try body()
    } catch {
        throw CMSError.malformed(what, error)
    }
}
