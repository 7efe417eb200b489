import ASN1
import Foundation

/// An ICAO CSCA master list (ICAO 9303-12 §9): SignedData over the CSCA and link
/// certificates a country vouches for, signed by a master-list signer its CSCA issued.
///
/// ```
/// CscaMasterList ::= SEQUENCE {
///     version   CscaMasterListVersion,    -- v0(0)
///     certList  SET OF Certificate }
/// ```
public struct MasterList: Sendable {
    /// The ContentInfo as read (what `emrtd trust update` writes beside the bundle).
    public let der: [UInt8]
    public let signedData: SignedData
    public let version: Int
    /// The list's certificates, duplicates removed, in the order first seen.
    public let certificates: [Certificate]

    public init(bytes: some Collection<UInt8>) throws(CMSError) {
        let der = Array(bytes)
        try self.init(signedData: SignedData(contentInfo: der), der: der)
    }

    init(signedData: SignedData, der: [UInt8]) throws(CMSError) {
        guard signedData.contentType == ASN1ObjectIdentifier.cscaMasterList else {
            throw CMSError(.malformed, "eContentType \(signedData.contentType) is not id-icao-cscaMasterList")
        }
        guard let content = signedData.content else { throw CMSError(.malformed, "master list has no eContent") }
        self.signedData = signedData
        self.der = der
        let (version, nodes) = try reading("CscaMasterList") { () throws(ASN1Error) in
            // CscaMasterList ::= SEQUENCE { version INTEGER, certList SET OF Certificate }
            var fields = try ASN1Node.parse(content).sequenceFields("CscaMasterList")
            return (try fields.next("version").intValue(), try fields.next(.set, "certList").children)
        }
        self.version = version
        var seen = Set<[UInt8]>()
        var certificates: [Certificate] = []
        for node in nodes {
            let certificate = try Certificate(node: node)
            if seen.insert(certificate.sha256Fingerprint).inserted { certificates.append(certificate) }
        }
        self.certificates = certificates
    }

    /// Verifies the CMS signature with the signer certificate the list carries (or one from
    /// `roots`), then the signer's certificate against `roots`: issuer link, the root's
    /// signature, and validity at `time`. Without roots the chain is left unchecked.
    public func verify(roots: [Certificate], at time: Date) -> SignedListVerification {
        signedData.verifyListSigner(anchors: TrustStore(roots), checkingChain: !roots.isEmpty, at: time)
    }

    /// The distinct subject countries (upper-cased), sorted.
    public var countries: [String] {
        Array(Set(certificates.compactMap(\.subject.country))).sorted()
    }
}

extension TrustStore {
    /// Adds a master list's certificates when its signature and signer chain verify against
    /// `roots`; returns the verification either way (nothing is added when it fails).
    @discardableResult
    public mutating func add(masterList: MasterList, roots: [Certificate], at time: Date) -> SignedListVerification {
        let verification = masterList.verify(roots: roots, at: time)
        if verification.isTrusted { add(masterList.certificates) }
        return verification
    }
}
