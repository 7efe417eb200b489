import CodedErrors

/// The one error every operation of this package throws: a code to switch on
/// and a reason for people. Reasons never contain key material.
public typealias CryptoError = PackageError<CryptoErrorCode>

/// What went wrong, for `CryptoError`.
public enum CryptoErrorCode: String, ErrorCode {
    /// A key of the wrong length for its cipher.
    case invalidKeyLength
    /// Input that is not a whole number of blocks, an IV of the wrong size, an
    /// oversized request.
    case invalidInputLength
    /// ISO/IEC 7816-4 padding that is absent or malformed.
    case invalidPadding
    /// A parameter outside what the operation defines (e.g. a PSS salt length
    /// below zero, an RSA input not below the modulus).
    case invalidParameter
    /// An RSA public key that cannot be used (bad modulus or exponent, an
    /// undecodable SubjectPublicKeyInfo, not an RSA key).
    case invalidPublicKey
    /// libcrypto refused an operation that should have worked.
    case libraryFailure
}
