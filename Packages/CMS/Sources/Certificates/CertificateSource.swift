import ASN1
import Foundation

/// What a certificate file turned out to hold: `certificates` reads PEM bundles, DER
/// certificates, master lists and EF.SOD files alike.
public enum CertificateFile: Sendable {
    /// PEM (one or many `CERTIFICATE` blocks) or one DER certificate.
    case certificates([Certificate])
    case masterList(MasterList)
    case securityObject(DocumentSecurityObject)

    /// Recognises the content by its shape, not by its file name.
    public init(bytes: [UInt8]) throws(CMSError) {
        if let text = String(bytes: bytes.prefix(1 << 26), encoding: .utf8), text.contains(PEM.begin) {
            self = .certificates(try PEM.certificates(in: text))
            return
        }
        let node = try reading("certificate file") { () throws(ASN1Error) in try ASN1Node.parse(bytes) }
        if node.tag == .application(23, constructed: true) {
            self = .securityObject(try DocumentSecurityObject(bytes: bytes))
        } else if node.tag == .sequence, node.children.first?.tag == .objectIdentifier {
            let signedData = try SignedData(contentInfo: node)
            if signedData.contentType == ASN1ObjectIdentifier.cscaMasterList {
                self = .masterList(try MasterList(signedData: signedData, der: Array(node.encodedBytes)))
            } else if signedData.contentType == DeviationList.contentType {
                throw CMSError(
                    .unrecognizedInput,
                    "a deviation list holds no certificate to trust (give it with --deviation-list or "
                        + "`emrtd trust update`)")
            } else {
                self = .securityObject(try DocumentSecurityObject(bytes: bytes))
            }
        } else {
            self = .certificates([try Certificate(node: node)])
        }
    }

    /// Every certificate the file holds: a master list's CSCA certificates, an EF.SOD's DSCs.
    public var certificates: [Certificate] {
        switch self {
        case .certificates(let certificates): certificates
        case .masterList(let list): list.certificates
        case .securityObject(let sod): sod.signedData.certificates
        }
    }
}

/// The PEM form of certificates and CRLs (RFC 7468): base64 DER between BEGIN and END lines.
enum PEM {
    static let begin = "-----BEGIN CERTIFICATE-----"
    static let end = "-----END CERTIFICATE-----"
    /// RFC 7468's label for a CMS ContentInfo (a bundle's deviation lists).
    static let beginCMS = "-----BEGIN CMS-----"
    static let endCMS = "-----END CMS-----"

    /// The bytes as text when they are PEM (they hold a BEGIN line), else nil.
    static func text(_ bytes: [UInt8]) -> String? {
        guard let text = String(bytes: bytes.prefix(1 << 26), encoding: .utf8), text.contains("-----BEGIN ") else {
            return nil
        }
        return text
    }

    /// Whether the bytes are PEM holding at least one certificate.
    static func holdsCertificates(_ bytes: [UInt8]) -> Bool { text(bytes)?.contains(begin) == true }

    static func certificates(in text: String) throws(CMSError) -> [Certificate] {
        try blocks(in: text, begin: begin, end: end).map { (der) throws(CMSError) in try Certificate(derEncoded: der) }
    }

    /// The DER of every block between `begin` and `end`.
    static func blocks(in text: String, begin: String, end: String) throws(CMSError) -> [[UInt8]] {
        var blocks: [[UInt8]] = []
        var rest = text[...]
        while let start = rest.range(of: begin) {
            guard let stop = rest.range(of: end, range: start.upperBound..<rest.endIndex) else {
                throw CMSError(.malformed, "PEM block \(blocks.count + 1) has no END line")
            }
            let body = rest[start.upperBound..<stop.lowerBound]
            guard let der = Data(base64Encoded: String(body), options: .ignoreUnknownCharacters) else {
                throw CMSError(.malformed, "PEM block \(blocks.count + 1) is not base64")
            }
            blocks.append([UInt8](der))
            rest = rest[stop.upperBound...]
        }
        return blocks
    }

    static func encode(_ der: [UInt8], begin: String = begin, end: String = end) -> String {
        let body = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return begin + "\n" + body + "\n" + end + "\n"
    }
}

extension Certificate {
    /// This certificate as a PEM block.
    public var pem: String { PEM.encode(der) }
}
