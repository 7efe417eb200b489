/// Why Passive Authentication (or a master list check) did not pass; the verdict's `errors`.
public enum PassiveAuthenticationError: Sendable, Hashable, CustomStringConvertible {
    /// EF.SOD (or another SignedData) could not be read.
    case malformedSignedData(String)
    case unsupportedAlgorithm(String)
    /// Neither the SignedData nor the trust store holds the certificate the SignerInfo names.
    case documentSignerNotFound
    /// The SignerInfo names another certificate than the one carried.
    case signerIdentifierMismatch
    case contentTypeMismatch(attribute: String?, eContentType: String)
    case messageDigestMismatch
    case signatureInvalid
    /// The trust store holds no CSCA whose name or key identifier matches the certificate's issuer.
    case issuerNotFound(issuer: String)
    case issuerSignatureInvalid
    case notValidAtCheckTime
    case issuedOutsideIssuerValidity
    case keyUsageMissing(String)
    case dataGroupHashMismatch(Int)
    case dataGroupNotHashed(Int)

    /// A short stable name for programs.
    public var code: String {
        switch self {
        case .malformedSignedData: "malformedSignedData"
        case .unsupportedAlgorithm: "unsupportedAlgorithm"
        case .documentSignerNotFound: "documentSignerNotFound"
        case .signerIdentifierMismatch: "signerIdentifierMismatch"
        case .contentTypeMismatch: "contentTypeMismatch"
        case .messageDigestMismatch: "messageDigestMismatch"
        case .signatureInvalid: "signatureInvalid"
        case .issuerNotFound: "issuerNotFound"
        case .issuerSignatureInvalid: "issuerSignatureInvalid"
        case .notValidAtCheckTime: "notValidAtCheckTime"
        case .issuedOutsideIssuerValidity: "issuedOutsideIssuerValidity"
        case .keyUsageMissing: "keyUsageMissing"
        case .dataGroupHashMismatch: "dataGroupHashMismatch"
        case .dataGroupNotHashed: "dataGroupNotHashed"
        }
    }

    public var description: String {
        switch self {
        case .malformedSignedData(let reason): "the signed data cannot be read: \(reason)"
        case .unsupportedAlgorithm(let reason): "unsupported: \(reason)"
        case .documentSignerNotFound: "the signer's certificate is neither in the signed data nor in the trust store"
        case .signerIdentifierMismatch: "the SignerInfo identifies another certificate than the one carried"
        case .contentTypeMismatch(let attribute, let eContentType):
            "the contentType attribute (\(attribute ?? "absent")) is not the eContentType (\(eContentType))"
        case .messageDigestMismatch: "the messageDigest attribute is not the hash of the content"
        case .signatureInvalid: "the signature does not verify with the signer's key"
        case .issuerNotFound(let issuer): "no trusted certificate for the issuer \(issuer)"
        case .issuerSignatureInvalid: "the certificate's signature does not verify with its issuer's key"
        case .notValidAtCheckTime: "the certificate is not valid at the check time"
        case .issuedOutsideIssuerValidity: "the certificate was issued outside its issuer's validity period"
        case .keyUsageMissing(let usage): "the certificate's key usage lacks \(usage)"
        case .dataGroupHashMismatch(let number): "DG\(number) does not match its hash in EF.SOD"
        case .dataGroupNotHashed(let number): "DG\(number) was read but EF.SOD holds no hash for it"
        }
    }
}
