import ASN1
import CryptoPrimitives
import Foundation

/// An ICAO deviation list (ICAO 9303-12 §10): SignedData over the defects an issuing state
/// knows its documents to have, signed by a deviation-list signer its CSCA issued, so that an
/// inspection system can tell a known defect from a forgery.
///
/// ```
/// DeviationList ::= SEQUENCE {
///     version DeviationListVersion,                 -- v0(0)
///     digestAlgorithm AlgorithmIdentifier OPTIONAL,
///     deviations SET OF Deviation }
/// Deviation ::= SEQUENCE { documents DeviationDocuments, descriptions SET OF DeviationDescription }
/// DeviationDocuments ::= SEQUENCE {                 -- IMPLICIT TAGS; every criterion must hold
///     documentType [0] PrintableString (SIZE(2)) OPTIONAL,
///     dscIdentifier DocumentSignerIdentifier OPTIONAL,
///     issuingDate [4] IssuancePeriod OPTIONAL,
///     documentNumbers [5] SET OF PrintableString OPTIONAL }
/// DocumentSignerIdentifier ::= CHOICE {
///     issuerAndSerialNumber [1] IssuerAndSerialNumber,
///     subjectKeyIdentifier [2] SubjectKeyIdentifier,
///     certificateDigest [3] Digest }
/// IssuancePeriod ::= SEQUENCE { firstIssued GeneralizedTime, lastIssued GeneralizedTime }
/// DeviationDescription ::= SEQUENCE {
///     description PrintableString OPTIONAL,
///     deviationType OBJECT IDENTIFIER,
///     parameters [0] ANY DEFINED BY deviationType OPTIONAL,
///     nationalUse [1] ANY OPTIONAL }
/// ```
public struct DeviationList: Sendable {
    /// id-icao-DeviationList, the eContentType.
    public static let contentType: ASN1ObjectIdentifier = "2.23.136.1.1.7"

    /// The ContentInfo as read (what a bundle keeps, `TrustStore.pem`).
    public let der: [UInt8]
    public let signedData: SignedData
    public let version: Int
    /// The hash of `certificateDigest` identifiers: the list's digestAlgorithm, else SHA-256.
    public let digestAlgorithm: HashAlgorithm
    public let deviations: [Deviation]
    /// The country of the CSCA the list was verified under (`TrustStore.add(deviationList:)`);
    /// nil until then. A list speaks only for its own state's documents.
    public internal(set) var country: String?

    /// The documents a deviation concerns: every criterion given must hold.
    public struct Documents: Sendable, Hashable {
        /// The MRZ document code ("P", "ID"…), filler removed.
        public let documentType: String?
        /// The Document Signer (or, for a CSCA defect, the CSCA) of the documents.
        public let certificate: CertificateIdentifier?
        public let issuedFrom: Date?
        public let issuedUntil: Date?
        public let documentNumbers: [String]?
    }

    /// `DocumentSignerIdentifier`: a certificate by issuer and serial number or key identifier
    /// (as a SignerInfo names one), or by the digest of its DER.
    public enum CertificateIdentifier: Sendable, Hashable {
        case named(SignerInfo.Identifier)
        case digest([UInt8])
    }

    public struct Deviation: Sendable, Hashable {
        public let documents: Documents
        public let descriptions: [Description]
    }

    /// One defect: its type, the field it concerns, and the issuer's words.
    public struct Description: Sendable, Hashable {
        public let type: ASN1ObjectIdentifier
        /// The issuer's free text.
        public let text: String?
        /// The DER of `parameters`' value (a Datagroup, MRZField or CertField), when present.
        public let parameters: [UInt8]?

        /// What the defect concerns, from the type's arc.
        public var category: Category {
            let arcs = type.arcs
            let base = DeviationList.contentType.arcs
            guard arcs.count > base.count, Array(arcs.prefix(base.count)) == base else { return .unknown }
            return Category(rawValue: Int(arcs[base.count])) ?? .unknown
        }

        /// The 9303-12 name of the type ("DSSignature", "DGHashWrong"…), nil for one it does not define.
        public var name: String? { DeviationList.typeNames[type.dotted] }

        /// The data group (1–16), EF.SOD (20) or EF.COM (21) an LDS defect names.
        public var dataGroup: Int? {
            guard category == .lds, let parameters, let node = try? ASN1Node.parse(parameters) else { return nil }
            return try? node.intValue()
        }

        /// The defect in a sentence: type, the field named, the issuer's text.
        public var sentence: String {
            var words = name.map { "\(category.displayName) deviation \($0)" } ?? "deviation \(type.dotted)"
            if let dataGroup {
                words += " of " + (dataGroup == 20 ? "EF.SOD" : dataGroup == 21 ? "EF.COM" : "DG\(dataGroup)")
            }
            if let text, !text.isEmpty { words += " (\"\(text)\")" }
            return words
        }
    }

    /// The deviation type's arc under id-icao-DeviationList, and what each does to the verdict:
    /// nothing. A deviation never changes `status`: a check that failed stays failed (the list
    /// matches documents by identifiers a forger can copy, so it cannot vouch for a signature
    /// that does not verify or data that does not match its hash), a check that passed stays
    /// passed. It is named in the verdict's `errors` (`listedDeviation`) beside what failed, so
    /// a known defect reads as one.
    public enum Category: Int, Sendable, Hashable {
        /// A certificate or key: the DSC's signature or encoding, the CSCA's encoding, a
        /// compromised Active Authentication key (the chip verdict's concern).
        case certificateOrKey = 1
        /// A data group malformed or with a wrong hash, EF.SOD's signature, EF.COM.
        case lds = 2
        /// The MRZ's data or check digits.
        case mrz = 3
        case chip = 4
        case nationalUse = 5
        case unknown = 0

        var displayName: String {
            switch self {
            case .certificateOrKey: "certificate or key"
            case .lds: "LDS"
            case .mrz: "MRZ"
            case .chip: "chip"
            case .nationalUse: "national-use"
            case .unknown: "unknown"
            }
        }
    }

    /// The deviation types 9303-12 §10.2 defines, by OID.
    static let typeNames: [String: String] = [
        "2.23.136.1.1.7.1": "CertOrKey", "2.23.136.1.1.7.1.1": "DSSignature", "2.23.136.1.1.7.1.2": "DSEncoding",
        "2.23.136.1.1.7.1.3": "CSCAEncoding", "2.23.136.1.1.7.1.4": "AAKeyCompromised", "2.23.136.1.1.7.2": "LDS",
        "2.23.136.1.1.7.2.1": "DGMalformed", "2.23.136.1.1.7.2.2": "DGHashWrong",
        "2.23.136.1.1.7.2.3": "SODSignatureWrong", "2.23.136.1.1.7.2.4": "COMInconsistent",
        "2.23.136.1.1.7.3": "MRZ", "2.23.136.1.1.7.3.1": "WrongData", "2.23.136.1.1.7.3.2": "WrongCheckDigit",
        "2.23.136.1.1.7.4": "Chip", "2.23.136.1.1.7.5": "NationalUse",
    ]

    public init(bytes: some Collection<UInt8>) throws(CMSError) {
        der = Array(bytes)
        let signedData = try SignedData(contentInfo: der)
        guard signedData.contentType == Self.contentType else {
            throw CMSError(.malformed, "eContentType \(signedData.contentType) is not id-icao-DeviationList")
        }
        guard let content = signedData.content else { throw CMSError(.malformed, "deviation list has no eContent") }
        self.signedData = signedData
        let (version, algorithm, nodes) = try reading("DeviationList") { () throws(ASN1Error) in
            var fields = try ASN1Node.parse(content).sequenceFields("DeviationList")
            let version = try fields.next("version").intValue()
            let algorithm = fields.next(optional: .sequence)
            return (version, algorithm, try fields.next(.set, "deviations").children)
        }
        self.version = version
        digestAlgorithm =
            try algorithm.map { node throws(CMSError) in
                try HashAlgorithm(digestAlgorithm: AlgorithmIdentifier(node))
            } ?? .sha256
        deviations = try nodes.map { node throws(CMSError) in try Self.deviation(node) }
    }

    private static func deviation(_ node: ASN1Node) throws(CMSError) -> Deviation {
        let (documentsNode, descriptionNodes) = try reading("Deviation") { () throws(ASN1Error) in
            var fields = try node.sequenceFields("Deviation")
            return (try fields.next(.sequence, "documents"), try fields.next(.set, "descriptions").children)
        }
        return Deviation(
            documents: try documents(documentsNode),
            descriptions: try descriptionNodes.map { node throws(CMSError) in try description(node) })
    }

    private static func documents(_ node: ASN1Node) throws(CMSError) -> Documents {
        var type: String?
        var certificate: CertificateIdentifier?
        var period: (Date, Date)?
        var numbers: [String]?
        for child in node.children {
            let tag = child.tag
            if tag == .contextSpecific(0, constructed: false) {
                type = String(decoding: child.content, as: UTF8.self).replacingOccurrences(of: "<", with: "")
            } else if tag == .contextSpecific(1, constructed: true) {
                let (issuer, serial) = try reading("IssuerAndSerialNumber") { () throws(ASN1Error) in
                    var fields = child.fields
                    return (try fields.next("issuer"), Array(try fields.next("serialNumber").integerBytes()))
                }
                certificate = .named(
                    .issuerAndSerialNumber(issuer: try DistinguishedName(issuer), serialNumber: serial))
            } else if tag == .contextSpecific(2, constructed: false) {
                certificate = .named(.subjectKeyIdentifier(Array(child.content)))
            } else if tag == .contextSpecific(3, constructed: false) {
                certificate = .digest(Array(child.content))
            } else if tag == .contextSpecific(4, constructed: true) {
                period = try reading("IssuancePeriod") { () throws(ASN1Error) in
                    var fields = child.fields
                    return (try fields.next("firstIssued").time(), try fields.next("lastIssued").time())
                }
            } else if tag == .contextSpecific(5, constructed: true) {
                numbers = try reading("documentNumbers") { () throws(ASN1Error) in
                    try child.children.map { (number) throws(ASN1Error) in
                        try number.string().replacingOccurrences(of: "<", with: "")
                    }
                }
            } else {
                throw CMSError(.malformed, "DeviationDocuments: unexpected field \(tag)")
            }
        }
        return Documents(
            documentType: type, certificate: certificate, issuedFrom: period?.0, issuedUntil: period?.1,
            documentNumbers: numbers)
    }

    private static func description(_ node: ASN1Node) throws(CMSError) -> Description {
        try reading("DeviationDescription") { () throws(ASN1Error) in
            var fields = try node.sequenceFields("DeviationDescription")
            let text = try fields.nextIf { $0.tag != .objectIdentifier }.map { (node) throws(ASN1Error) in
                try node.string()
            }
            let type = try fields.next(.objectIdentifier, "deviationType").objectIdentifier()
            // [0] around an ANY is explicit: the value is its one child.
            let parameters = fields.next(optional: .contextSpecific(0, constructed: true))?.children.first
            return Description(type: type, text: text, parameters: parameters.map { Array($0.encodedBytes) })
        }
    }

    /// Verifies the signature and the signer's chain to a CSCA in `trustStore` (issuer link,
    /// the CSCA's signature, the signer valid at the list's signing time, as the bundle's master
    /// lists are checked; now when the list has none).
    public func verify(trustStore: TrustStore) -> SignedListVerification {
        signedData.verifyListSigner(anchors: trustStore, checkingChain: true, at: signingTime ?? Date())
    }

    /// The signingTime attribute (9303-12 requires it).
    public var signingTime: Date? { signedData.signerInfos.first?.signedAttributes?.signingTime }
}

extension DeviationList.Documents {
    /// Whether a document with Document Signer `signer`, CSCA `authority` and the MRZ's document
    /// code and number (when the caller knows them) is among these documents. A criterion the
    /// caller cannot evaluate (the issuance period; a number or type not given) does not exclude
    /// it: a listed defect is shown rather than hidden.
    func include(
        signer: Certificate, authority: Certificate?, documentCode: String?, documentNumber: String?,
        digest: HashAlgorithm
    ) -> Bool {
        if let certificate {
            let candidates = [signer] + (authority.map { [$0] } ?? [])
            let matched = candidates.contains { candidate in
                switch certificate {
                case .named(let identifier): identifier.matches(candidate)
                case .digest(let value): digest.hash(candidate.der) == value
                }
            }
            guard matched else { return false }
        }
        if let documentType, let documentCode,
            documentCode.replacingOccurrences(of: "<", with: "").uppercased() != documentType.uppercased()
        {
            return false
        }
        if let documentNumbers, let documentNumber,
            !documentNumbers.contains(documentNumber.replacingOccurrences(of: "<", with: "").uppercased())
        {
            return false
        }
        return true
    }

    /// The criteria a reader could not check, for the sentence naming the deviation.
    var unchecked: [String] {
        var notes: [String] = []
        if let issuedFrom, let issuedUntil {
            notes.append("for documents issued \(isoDay(issuedFrom))…\(isoDay(issuedUntil))")
        }
        return notes
    }
}

extension TrustStore {
    /// Adds a deviation list when its signature and signer chain verify against this store's
    /// CSCAs; returns the verification either way (nothing is added when it fails). The list then
    /// speaks for the verifying CSCA's country alone.
    @discardableResult
    public mutating func add(deviationList: DeviationList) -> SignedListVerification {
        let verification = deviationList.verify(trustStore: self)
        guard verification.isTrusted else { return verification }
        guard let country = verification.root?.subject.country else {
            // A list must name the state it speaks for: its CSCA's country.
            return SignedListVerification(
                signer: verification.signer, root: verification.root, signatureValid: verification.signatureValid,
                signerChainValid: false, signingTime: verification.signingTime,
                problems: [.issuerNotFound(issuer: "a CSCA that names its country (C)")])
        }
        var list = deviationList
        list.country = country
        if !deviationLists.contains(where: { $0.der == list.der }) { deviationLists.append(list) }
        return verification
    }

    /// The listed deviations that concern a document signed by `signer` under `authority`
    /// (the CSCA found, when one was): only lists of the CSCA's country (or the signer's issuer's,
    /// when no CSCA was found) apply.
    public func deviations(
        signer: Certificate, authority: Certificate?, documentCode: String? = nil, documentNumber: String? = nil
    ) -> [PassiveAuthenticationError] {
        guard let country = authority?.subject.country ?? signer.issuer.country else { return [] }
        var found: [PassiveAuthenticationError] = []
        for list in deviationLists where list.country == country {
            for deviation in list.deviations
            where deviation.documents.include(
                signer: signer, authority: authority, documentCode: documentCode, documentNumber: documentNumber,
                digest: list.digestAlgorithm)
            {
                for description in deviation.descriptions {
                    let scope = deviation.documents.unchecked
                    found.append(
                        .listedDeviation(
                            country: country,
                            signed: list.signingTime,
                            deviation: description.sentence
                                + (scope.isEmpty ? "" : ", " + scope.joined(separator: ", "))))
                }
            }
        }
        return found
    }
}
