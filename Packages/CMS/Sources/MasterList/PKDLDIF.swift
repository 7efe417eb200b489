import Foundation

/// An ICAO PKD download (LDIF, RFC 2849): the entries of its DSC, CRL and master-list files, with
/// the certificates, revocation lists and master lists they carry.
///
/// The PKD publishes each object as an LDAP entry whose binary attribute holds it in base64:
///
/// ```
/// dn: cn=…,o=dsc,c=DE,dc=data,dc=download,dc=pkd,dc=icao,dc=int
/// userCertificate;binary:: MIIE…            (a DSC, or cACertificate;binary for a CA)
/// certificateRevocationList;binary:: MII…   (a CSCA's CRL)
/// pkdMasterListContent:: MII…               (a CSCA master list, CMS SignedData)
/// ```
///
/// Lines that begin with a space continue the line before; `#` lines are comments; a blank line
/// ends an entry. An entry whose object does not parse is a `problem` naming its line, not the
/// end of the import: a download holds thousands of objects from as many issuers.
public struct PKDLDIF: Sendable {
    public let certificates: [Certificate]
    public let revocationLists: [CertificateRevocationList]
    /// Not yet verified: `MasterList.verify` against a root the caller trusts decides.
    public let masterLists: [MasterList]
    /// Each object that could not be read, with the line its entry starts on.
    public let problems: [String]
    /// How many entries the file holds.
    public let entryCount: Int

    /// Whether the bytes look like LDIF (a `dn:` or `version:` line first), so that a caller can
    /// tell it from a DER or PEM file before parsing.
    public static func isLDIF(_ bytes: [UInt8]) -> Bool {
        guard let text = String(bytes: bytes.prefix(4096), encoding: .utf8) else { return false }
        let first = text.split(whereSeparator: \.isNewline).first { !$0.hasPrefix("#") && !$0.isEmpty }
        return first.map { $0.lowercased().hasPrefix("dn:") || $0.lowercased().hasPrefix("version:") } ?? false
    }

    public init(bytes: [UInt8]) throws(CMSError) {
        guard let text = String(bytes: bytes, encoding: .utf8) else {
            throw CMSError(.malformed, "LDIF: the file is not UTF-8 text")
        }
        var certificates: [Certificate] = []
        var revocationLists: [CertificateRevocationList] = []
        var masterLists: [MasterList] = []
        var problems: [String] = []
        let entries = try Self.entries(text)
        for entry in entries {
            for attribute in entry.attributes {
                let entryName = "the entry on line \(entry.line)"
                do throws(CMSError) {
                    switch attribute.name {
                    case "usercertificate", "cacertificate":
                        certificates.append(try Certificate(derEncoded: attribute.value))
                    case "certificaterevocationlist", "authorityrevocationlist":
                        revocationLists.append(try CertificateRevocationList(derEncoded: attribute.value))
                    case "pkdmasterlistcontent":
                        masterLists.append(try MasterList(bytes: attribute.value))
                    default:
                        break
                    }
                } catch {
                    problems.append("\(entryName) (\(attribute.name)): \(error.reason)")
                }
            }
        }
        self.certificates = certificates
        self.revocationLists = revocationLists
        self.masterLists = masterLists
        self.problems = problems
        entryCount = entries.count
    }

    struct Entry {
        /// The line the entry starts on, from 1.
        let line: Int
        /// Attribute names lower-cased without their options (`;binary`), with their values.
        var attributes: [(name: String, value: [UInt8])] = []
    }

    /// The entries of the text: logical lines unfolded, comments dropped, values decoded.
    static func entries(_ text: String) throws(CMSError) -> [Entry] {
        var entries: [Entry] = []
        var current: Entry?
        var logical: (line: Int, text: String)?
        var lineNumber = 0

        func finishLine() throws(CMSError) {
            guard let (line, text) = logical else { return }
            logical = nil
            if text.hasPrefix("#") { return }
            guard let colon = text.firstIndex(of: ":") else {
                throw CMSError(.malformed, "LDIF line \(line): no attribute name before a colon")
            }
            let name = text[..<colon].split(separator: ";").first.map { $0.lowercased() } ?? ""
            var rest = text[text.index(after: colon)...]
            let value: [UInt8]
            if rest.first == ":" {
                rest = rest.dropFirst()
                guard let decoded = Data(base64Encoded: rest.trimmingCharacters(in: .whitespaces)) else {
                    throw CMSError(.malformed, "LDIF line \(line): the value of \(name) is not base64")
                }
                value = [UInt8](decoded)
            } else if rest.first == "<" {
                throw CMSError(.unsupported, "LDIF line \(line): values by URL are not read")
            } else {
                value = Array(rest.drop { $0 == " " }.utf8)
            }
            if name == "version" && current == nil && entries.isEmpty { return }
            if name == "dn" {
                if let entry = current { entries.append(entry) }
                current = Entry(line: line)
            } else if current == nil {
                throw CMSError(.malformed, "LDIF line \(line): \(name) before any dn line")
            }
            current?.attributes.append((name, value))
        }

        // "\r\n" is one Character in Swift: both line ends are separators.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            if line.hasPrefix(" "), logical != nil {
                logical?.text += line.dropFirst()
                continue
            }
            try finishLine()
            if line.isEmpty {
                if let entry = current { entries.append(entry) }
                current = nil
            } else {
                logical = (lineNumber, String(line))
            }
        }
        try finishLine()
        if let entry = current { entries.append(entry) }
        return entries
    }
}
