/// The CMS envelope of a signed file (RFC 5652 §3, §5.1, §5.2), read in one place below the
/// packages that open it: LDS for EF.CardSecurity's SecurityInfos, CMS for EF.SOD, master lists
/// and deviation lists (which go on to the certificates and SignerInfos it leaves as nodes).
///
/// ```
/// ContentInfo ::= SEQUENCE { contentType id-signedData, content [0] EXPLICIT SignedData }
/// SignedData ::= SEQUENCE { version INTEGER, digestAlgorithms SET,
///     encapContentInfo EncapsulatedContentInfo, certificates [0] IMPLICIT SET OPTIONAL,
///     crls [1] IMPLICIT SET OPTIONAL, signerInfos SET }
/// EncapsulatedContentInfo ::= SEQUENCE { eContentType OBJECT IDENTIFIER,
///     eContent [0] EXPLICIT OCTET STRING OPTIONAL }
/// ```
public struct SignedDataEnvelope: Sendable {
    /// SignedData's version.
    public let version: Int
    /// The eContentType: what the signed content is (ldsSecurityObject, id-SecurityObject, …).
    public let contentType: ASN1ObjectIdentifier
    /// The eContent's octets; nil for detached content.
    public let content: [UInt8]?
    /// The certificates field's entries, unparsed (nil when the field is absent).
    public let certificates: [ASN1Node]?
    /// The SignerInfos SET's entries, unparsed.
    public let signerInfos: [ASN1Node]

    /// Reads the envelope from a ContentInfo node; `invalidValue` when it holds no SignedData.
    public init(contentInfo node: ASN1Node) throws(ASN1Error) {
        var contentFields = try node.sequenceFields("ContentInfo")
        let type = try contentFields.next("contentType").objectIdentifier()
        guard type == .signedData else {
            throw ASN1Error(.invalidValue, "ContentInfo: contentType is \(type), not id-signedData")
        }
        let signedData = try node.requiredChild(.contextSpecific(0, constructed: true), "content")
            .wrapped("SignedData").expect(.sequence, "SignedData")
        var fields = signedData.fields
        version = try fields.next("version").intValue()
        _ = try fields.next("digestAlgorithms")
        let encapsulated = try fields.next("encapContentInfo")
        certificates = fields.next(optional: .contextSpecific(0, constructed: true))?.children
        _ = fields.next(optional: .contextSpecific(1, constructed: true))
        // signerInfos is the last field; anything between the CRLs and it is ignored.
        guard let signers = fields.remaining.last, signers.tag == .set else {
            throw ASN1Error(.missingElement, "SignedData: SignerInfos SET missing")
        }
        signerInfos = signers.children
        var encapsulatedFields = try encapsulated.sequenceFields("EncapsulatedContentInfo")
        contentType = try encapsulatedFields.next("eContentType").objectIdentifier()
        content = try encapsulatedFields.next(optional: .contextSpecific(0, constructed: true)).map {
            (wrapper: ASN1Node) throws(ASN1Error) in Array(try wrapper.wrapped("eContent").octetString())
        }
    }
}
