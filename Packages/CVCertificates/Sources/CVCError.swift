import CodedErrors

/// Every failure of this package: a code to branch on and a reason that names the certificate
/// (its CHR) and the field at fault.
public typealias CVCError = PackageError<CVCErrorCode>

/// What went wrong, for `CVCError`.
public enum CVCErrorCode: String, ErrorCode {
    /// Not the data objects TR-03110 defines (a missing or malformed field, a wrong length).
    case malformed
    /// An algorithm, curve or terminal type this implementation does not know.
    case unsupported
    /// A certificate's CAR is not its issuer's CHR.
    case wrongIssuer
    /// A certificate's role or terminal type does not fit its place in the chain.
    case wrongRole
    /// A signature did not verify.
    case badSignature
    /// Outside its validity period at the date checked, or expiring before it is effective.
    case notValid
    /// A key that cannot be used (not on the curve, parameters missing, a bad RSA key).
    case unusableKey
}
