import CodedErrors

/// Every failure of this package: a code to branch on and a reason for people.
public typealias ArithmeticError = PackageError<ArithmeticErrorCode>

/// What went wrong, for `ArithmeticError`.
public enum ArithmeticErrorCode: String, ErrorCode {
    /// A number does not fit the requested fixed length.
    case valueTooLarge
    /// A hexadecimal or byte encoding is malformed.
    case malformedEncoding
    /// A point is not on the curve, is the point at infinity, has coordinates out of range or lies
    /// outside the prime-order subgroup.
    case invalidPoint
    /// A DH public value is out of range or outside the subgroup of order q.
    case invalidPublicValue
    /// Domain parameters are inconsistent (singular curve, generator off the curve, non-prime modulus).
    case invalidDomainParameters
    /// Explicit domain parameters exceed `DomainParameterLimits` (checked before any costly test).
    case domainParametersTooLarge
    /// A scalar or exponent is zero or out of its range.
    case invalidScalar
    /// A modular operation has no result (no inverse, no square root, even modulus for `powm_sec`).
    case noResult
    /// A signature is malformed (bad DER, wrong length).
    case malformedSignature
    /// The random source failed or returned too few bytes.
    case randomSourceFailed
}
