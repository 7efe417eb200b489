/// The Passive Authentication verdict, field for field the reference `DataAuthenticationStatus`.
public struct DataAuthenticationStatus: Sendable, Hashable {
    public var status: DataStatus
    /// Always Passive Authentication (9303-11 §5.1), as the reference model states it.
    public var `protocol`: DataProtocol { .passiveAuthentication }
    public var sodSignatureValid: Bool
    /// The DSC chains to a trusted CSCA, was issued within its validity, is valid at the
    /// check time and has the digitalSignature key usage.
    public var certificateChainValid: Bool
    /// No data group is `invalid` (`notRead` ones do not count against it).
    public var dataGroupHashesValid: Bool
    /// One entry per data group hashed in EF.SOD or read, sorted by number.
    public var dataGroupHashes: [DataGroupHash]
    /// "SHA-256" …; nil when EF.SOD could not be read.
    public var hashAlgorithm: String?
    /// "SHA256withRSAandMGF1" …, from the SignerInfo.
    public var signatureAlgorithm: String?
    public var documentSignerCertificate: CertificateInfo?
    public var countrySigningCertificate: CertificateInfo?
    /// The DSC issuer's country (upper-cased).
    public var issuingCountry: String?
    /// Why it did not pass, typed: what code branches on.
    public var failures: [PassiveAuthenticationError]
    /// Why it did not pass, in words: the reference's `errors`.
    public var errors: [String] { failures.map(\.description) }

    /// How many data groups were compared with their hash in EF.SOD (matching or not): what the
    /// verdict rests on, so that a verdict over no data at all shows as such.
    public var dataGroupsChecked: Int {
        dataGroupHashes.filter { $0.expectedHash != nil && $0.computedHash != nil }.count
    }
}

/// One data group's hash check.
public struct DataGroupHash: Sendable, Hashable {
    public let dataGroupNumber: UInt8
    public let status: HashStatus
    /// The hash EF.SOD holds; nil when it holds none.
    public let expectedHash: [UInt8]?
    /// The hash of the bytes read; nil when the data group was not read.
    public let computedHash: [UInt8]?
}

/// The Passive Authentication verdict.
public enum DataStatus: String, Sendable, Hashable {
    /// SOD signature, DSC chain to a trusted CSCA and every data group hash verified, DG1 and DG2
    /// among them.
    case authenticated
    /// Something verifiable failed (a signature, a hash, the chain to a CSCA that was found), or
    /// DG1 or DG2 was not checked.
    case denied
    /// Everything checkable passed, but no trusted CSCA matches the DSC's issuer.
    case authorityCertificatesNotProvided
}

/// The protocol behind the data verdict: there is one.
public enum DataProtocol: String, Sendable, Hashable {
    case passiveAuthentication
}

/// One data group against its hash in EF.SOD.
public enum HashStatus: String, Sendable, Hashable {
    case valid
    /// The hash differs, or the data group was read but EF.SOD has no hash for it.
    case invalid
    /// Hashed in EF.SOD but not read.
    case notRead
}
