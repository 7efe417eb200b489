import ASN1
import Foundation

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
    /// The signature does not verify with the key of the certificate named (its subject and
    /// serial number): the signed content or the signature was altered, or another key signed.
    case signatureInvalid(signer: String)
    /// The trust store holds no CSCA whose name or key identifier matches the certificate's issuer.
    case issuerNotFound(issuer: String)
    case issuerSignatureInvalid
    /// The certificate named was expired, or not yet valid, at the check time. Kept apart from
    /// `signatureInvalid` with the dates, so that an expired Document Signer (a genuine document
    /// checked too late, or a DSC whose validity was set short) reads differently from a forgery.
    case notValidAtCheckTime(certificate: String, notBefore: Date, notAfter: Date, checkTime: Date)
    case issuedOutsideIssuerValidity
    /// A CRL signed by the certificate's issuer lists it, revoked on the date given.
    case certificateRevoked(certificate: String, revocationDate: Date)
    case keyUsageMissing(String)
    case dataGroupHashMismatch(Int)
    case dataGroupNotHashed(Int)
    /// DG1 or DG2 (mandatory, ICAO 9303-10 §4.7) was not checked against EF.SOD: not read, or
    /// EF.SOD holds no hash for it. Without both the data cannot be authenticated.
    case mandatoryDataGroupNotChecked(Int)
    /// The CSCA's country is not the document's issuing state (`IssuingStateCountry`).
    case countryMismatch(cscaCountry: String, issuingState: String)
    /// The issuing state's deviation list (`DeviationList`, verified under its CSCA) names a known
    /// defect of this document. It changes no check: it says that what failed, or what passed
    /// despite the defect, is known to the issuer.
    case listedDeviation(country: String, signed: Date?, deviation: String)

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
        case .certificateRevoked: "certificateRevoked"
        case .keyUsageMissing: "keyUsageMissing"
        case .dataGroupHashMismatch: "dataGroupHashMismatch"
        case .dataGroupNotHashed: "dataGroupNotHashed"
        case .mandatoryDataGroupNotChecked: "mandatoryDataGroupNotChecked"
        case .countryMismatch: "countryMismatch"
        case .listedDeviation: "listedDeviation"
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
        case .signatureInvalid(let signer):
            "the signature does not verify with the key of \(signer): the signed data or the signature was altered"

        case .issuerNotFound(let issuer): "no trusted certificate for the issuer \(issuer)"
        case .issuerSignatureInvalid: "the certificate's signature does not verify with its issuer's key"
        case .notValidAtCheckTime(let certificate, let notBefore, let notAfter, let checkTime):
            checkTime > notAfter
                ? "\(certificate) expired on \(isoDay(notAfter)) (checked at \(isoDay(checkTime)))"
                : "\(certificate) is not valid before \(isoDay(notBefore)) (checked at \(isoDay(checkTime)))"

        case .issuedOutsideIssuerValidity: "the certificate was issued outside its issuer's validity period"
        case .certificateRevoked(let certificate, let date):
            "\(certificate) was revoked on \(isoDay(date)) by its issuer's certificate revocation list"
        case .keyUsageMissing(let usage): "the certificate's key usage lacks \(usage)"
        case .dataGroupHashMismatch(let number): "DG\(number) does not match its hash in EF.SOD"
        case .dataGroupNotHashed(let number): "DG\(number) was read but EF.SOD holds no hash for it"
        case .mandatoryDataGroupNotChecked(let number):
            "DG\(number) is mandatory but was not checked against EF.SOD (not read, or not hashed): "
                + "the data is not authenticated"
        case .countryMismatch(let cscaCountry, let issuingState):
            "the CSCA is of \(cscaCountry) but the document's issuing state is \(issuingState): "
                + "a CSCA vouches only for its own state's documents"
        case .listedDeviation(let country, let signed, let deviation):
            "known defect: the deviation list of \(country)"
                + (signed.map { " signed \(isoDay($0))" } ?? "") + " lists this document: \(deviation)"
        }
    }
}

/// A date as `YYYY-MM-DD` (UTC), the way errors name certificate validity dates.
func isoDay(_ date: Date) -> String { UTCDateTime(date).isoDay }
