import Foundation
import TestSupport
import Testing

@testable import CMS

/// The ICAO PKD LDIF reader (RFC 2849 as the PKD writes it) and CRLs, on files OpenSSL and
/// coreutils made (`OpenSSLPKI`) and on LDIF written here line by line.
@Suite struct PKDLDIFTests {
    static func text(_ lines: [String]) -> [UInt8] { Array(lines.joined(separator: "\n").utf8) }

    @Test func foldedLinesCommentsAndCRLF() throws {
        let value = Data("hello world".utf8).base64EncodedString()  // aGVsbG8gd29ybGQ=
        let folded = "info:: " + value.prefix(5) + "\r\n " + value.dropFirst(5)
        let entries = try PKDLDIF.entries(
            "# a comment\r\n#  folded comment\r\nversion: 1\r\n\r\ndn: cn=a,o=dsc\r\n" + folded
                + "\r\nplain: text\r\n\r\n"
                + "dn: cn=b\n")
        #expect(entries.count == 2)
        #expect(entries[0].line == 5 && entries[1].line == 10)
        #expect(entries[0].attributes.map(\.name) == ["dn", "info", "plain"])
        #expect(entries[0].attributes[1].value == Array("hello world".utf8))
        #expect(entries[0].attributes[2].value == Array("text".utf8))
    }

    @Test(arguments: [
        ("dn: x\nbroken line\n", "LDIF line 2: no attribute name before a colon"),
        ("dn: x\nuserCertificate;binary:: @@@\n", "LDIF line 2: the value of usercertificate is not base64"),
        ("dn: x\nuserCertificate:< file:///etc/passwd\n", "LDIF line 2: values by URL are not read"),
        ("userCertificate:: AAAA\n", "LDIF line 1: usercertificate before any dn line"),
    ])
    func malformedLinesAreNamed(text: String, reason: String) {
        #expect(throws: CMSError.self) { try PKDLDIF(bytes: Array(text.utf8)) }
        do {
            _ = try PKDLDIF(bytes: Array(text.utf8))
        } catch {
            #expect(error.reason == reason)
        }
    }

    /// An object that does not parse is a problem of its entry; the others are read.
    @Test func aBadObjectIsAProblemNotTheEnd() throws {
        let download = try PKDLDIF(
            bytes: Self.text(["dn: cn=bad", "userCertificate;binary:: AAEC", "", "dn: cn=other", "cn: x", ""]))
        #expect(download.entryCount == 2 && download.certificates.isEmpty)
        #expect(download.problems.count == 1 && download.problems[0].hasPrefix("the entry on line 1 (usercertificate)"))
        #expect(PKDLDIF.isLDIF(Self.text(["# PKD", "version: 1"])) && !PKDLDIF.isLDIF([0x30, 0x82]))
    }

    @Test func openSSLFilesAndTheirCRL() throws {
        guard let dg1 = TestFiles.shared("jmrtd/bsi2008/Datagroup1.bin"),
            let dg2 = TestFiles.shared("jmrtd/bsi2008/Datagroup2.bin")
        else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pkd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        guard try OpenSSLPKI.make(in: folder, dataGroup1: dg1, dataGroup2: dg2) != nil else { return }
        func file(_ name: String) throws -> [UInt8] { try TestFiles.bytes(folder.appendingPathComponent(name)) }

        let signers = try PKDLDIF(bytes: file("pkd-dsc.ldif"))
        let dsc = try Certificate(derEncoded: file("dsc.der"))
        #expect(signers.certificates == [dsc] && signers.problems.isEmpty && dsc.isDocumentSignerOnly)
        let lists = try PKDLDIF(bytes: file("pkd-crl.ldif")).revocationLists
        let crl = try #require(lists.first)
        #expect(lists.count == 1)
        #expect(try CertificateRevocationList.all(in: file("crl.pem")) == [crl])
        #expect(try CertificateRevocationList.all(in: file("crl.der")) == [crl])
        #expect(try CertificateRevocationList.all(in: file("dsc.der")).isEmpty)

        let csca = try #require(try CertificateFile(bytes: file("csca.pem")).certificates.first)
        #expect(!csca.isDocumentSignerOnly)
        #expect(crl.issuer == csca.subject && crl.revoked.count == 1)
        #expect(crl.isSigned(by: csca) && !crl.isSigned(by: dsc))
        let revocation = try #require(crl.revocationDate(of: dsc))

        var store = TrustStore([csca, dsc])
        #expect(store.issuers(of: dsc) == [csca] && store.documentSignerCount == 1)
        #expect(store.revocationDate(of: dsc, issuedBy: csca) == nil)
        store.add(crl)
        #expect(store.revocationDate(of: dsc, issuedBy: csca) == revocation)
        // A CRL is honoured only under its issuer's key.
        #expect(store.revocationDate(of: dsc, issuedBy: dsc) == nil)
        let policy = RevocationPolicy(store, at: revocation.addingTimeInterval(1))
        #expect(policy.check(dsc, issuedBy: csca)?.code == "certificateRevoked")
        #expect(RevocationPolicy(store, at: revocation.addingTimeInterval(-86_400)).check(dsc, issuedBy: csca) == nil)
        // The bundle a store writes reads back with its CRL.
        var reread = TrustStore()
        try reread.add(pemOrDer: Array(store.pem.utf8))
        #expect(reread.certificates.count == 2 && reread.revocationLists[csca.subject] == [crl])
    }
}
