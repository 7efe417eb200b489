import Foundation

/// One place the CSCAs (or CRLs) of a check came from, named in the report's footer: a verdict
/// is only as good as what was trusted, and a filed report must say what that was and how old.
public struct TrustSource: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// The default bundle (`DefaultTrustBundle`): a PEM file that records no signing time.
        case defaultBundle
        /// `--csca FILE`: a PEM bundle or one DER certificate.
        case certificateFile
        /// `--masterlist FILE.ml`, verified against its `--ml-root`.
        case masterList
        /// `--crl FILE`.
        case revocationList
        /// `--deviation-list FILE`, verified under a trusted CSCA.
        case deviationList
        /// The chip simulator's specimen: a test CSCA made for this read, in memory.
        case specimenCSCA
    }

    public let kind: Kind
    /// The file; nil for the specimen's CSCA, and for a default bundle that was not found.
    public let path: String?
    /// How many certificates it added; nil when not counted.
    public let certificates: Int?
    /// When the list was signed (a master list's CMS signing time); nil when the file records none.
    public let signingTime: Date?
    /// When the file was last written (its modification time): the only age a PEM bundle has.
    public let written: Date?

    public init(_ kind: Kind, path: String?, certificates: Int? = nil, signingTime: Date? = nil, written: Date? = nil) {
        self.kind = kind
        self.path = path
        self.certificates = certificates
        self.signingTime = signingTime
        self.written = written
    }

    /// A source read from `path`, its modification time looked up.
    public static func file(_ kind: Kind, path: String, certificates: Int? = nil, signingTime: Date? = nil)
        -> TrustSource
    {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return TrustSource(
            kind, path: path, certificates: certificates, signingTime: signingTime,
            written: attributes?[.modificationDate] as? Date)
    }
}
