import ASN1
import CryptoPrimitives

/// EF.SOD: the document's SignedData over its LDSSecurityObject (ICAO 9303-10 §4.6.2).
///
/// ```
/// EF.SOD ::= [APPLICATION 23] ContentInfo     -- tag 77
/// LDSSecurityObject ::= SEQUENCE {
///     version                LDSSecurityObjectVersion,   -- v0(0), v1(1) with ldsVersionInfo
///     hashAlgorithm          DigestAlgorithmIdentifier,
///     dataGroupHashValues    SEQUENCE SIZE (2..ub-DataGroups) OF DataGroupHash,
///     ldsVersionInfo         LDSVersionInfo OPTIONAL }
/// DataGroupHash ::= SEQUENCE { dataGroupNumber DataGroupNumber, dataGroupHashValue OCTET STRING }
/// LDSVersionInfo ::= SEQUENCE { ldsVersion PrintableString, unicodeVersion PrintableString }
/// ```
public struct DocumentSecurityObject: Sendable {
    public let signedData: SignedData
    public let version: Int
    public let hashAlgorithm: HashAlgorithm
    /// DG number → hash, as the SOD lists them (not necessarily in ascending order).
    public let dataGroupHashes: [Int: [UInt8]]
    public let ldsVersion: String?
    public let unicodeVersion: String?

    /// The eContentTypes real documents use: ldsSecurityObject, id-data (e.g. China), and the
    /// pre-standard ICAO and SDU (Netherlands) OIDs.
    static let acceptedContentTypes: Set<ASN1ObjectIdentifier> = [
        ASN1ObjectIdentifier.ldsSecurityObject, ASN1ObjectIdentifier.data, ASN1ObjectIdentifier.ldsSecurityObjectDraft,
        ASN1ObjectIdentifier.ldsSecurityObjectSDU,
    ]

    /// Parses EF.SOD as read from the chip (`77` tag), or a bare ContentInfo.
    public init(bytes: some Collection<UInt8>) throws(CMSError) {
        let outer = try reading("EF.SOD") { () throws(ASN1Error) in try ASN1Node.parse(bytes) }
        let contentInfo: ASN1Node
        if outer.tag == .application(23, constructed: true) {
            contentInfo = try reading("EF.SOD") { () throws(ASN1Error) in try outer.wrapped("ContentInfo") }
        } else {
            contentInfo = outer
        }
        signedData = try SignedData(contentInfo: contentInfo)
        guard Self.acceptedContentTypes.contains(signedData.contentType) else {
            throw CMSError(.malformed, "EF.SOD eContentType \(signedData.contentType) is not an LDS security object")
        }
        guard let content = signedData.content else { throw CMSError(.malformed, "EF.SOD has no eContent") }
        let object = try reading("LDSSecurityObject") { () throws(ASN1Error) in
            try ASN1Node.parse(content).expect(.sequence, "LDSSecurityObject")
        }
        let (version, algorithmNode, hashList, versionInfo) = try reading("LDSSecurityObject") {
            () throws(ASN1Error) in
            var fields = object.fields
            return (
                try fields.next("version").intValue(), try fields.next("hashAlgorithm"),
                try fields.next(.sequence, "dataGroupHashValues"),
                fields.next()
            )
        }
        self.version = version
        hashAlgorithm = try HashAlgorithm(digestAlgorithm: AlgorithmIdentifier(algorithmNode))
        var hashes: [Int: [UInt8]] = [:]
        for entry in hashList.children {
            let (number, hash) = try reading("DataGroupHash") { () throws(ASN1Error) in
                var fields = try entry.sequenceFields("DataGroupHash")
                return (
                    try fields.next("dataGroupNumber").intValue(), try fields.next("hash").octetString()
                )
            }
            guard (1...16).contains(number), hashes[number] == nil else {
                throw CMSError(.malformed, "LDSSecurityObject lists data group \(number) twice or out of 1…16")
            }
            hashes[number] = Array(hash)
        }
        dataGroupHashes = hashes
        (ldsVersion, unicodeVersion) = try reading("LDSVersionInfo") { () throws(ASN1Error) in
            guard let versionInfo else { return (nil, nil) }
            var fields = versionInfo.fields
            return (try fields.next("ldsVersion").string(), try fields.next("unicodeVersion").string())
        }
    }
}
