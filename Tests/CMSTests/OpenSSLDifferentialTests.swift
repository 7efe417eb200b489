import ASN1
import Foundation
import TestSupport
import Testing

@testable import CMS

/// Certificate fields compared with what the `openssl` CLI reads from the same files.
@Suite struct OpenSSLDifferentialTests {
    /// `openssl`'s standard output, nil when it fails.
    static func openssl(_ arguments: [String]) -> String? {
        guard let result = try? Subprocess.run("/usr/bin/openssl", arguments), result.status == 0 else { return nil }
        return result.output
    }

    @Test func certificateFields() throws {
        guard Prerequisites.tool("openssl", package: "openssl") != nil else { return }
        guard let folder = TestFiles.shared("gmrtd/sod_samples") else { return }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix("_CSCA.der") || $0.hasSuffix("_DSC.der") }.sorted()
        #expect(files.count >= 25)
        for file in files {
            let path = folder.appendingPathComponent(file).path
            let info = try #require(certificateInfos(pemOrDer: Data(TestFiles.bytes(URL(fileURLWithPath: path)))).first)
            let output = try #require(
                Self.openssl([
                    "x509", "-inform", "DER", "-in", path, "-noout", "-serial", "-fingerprint", "-sha256", "-dates",
                ]))
            var fields: [String: String] = [:]
            for line in output.split(separator: "\n") {
                guard let equals = line.firstIndex(of: "=") else { continue }
                fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
            #expect(fields["serial"].map(trimZeros) == trimZeros(info.serialNumber), "\(file)")
            #expect(
                fields["sha256 Fingerprint"]?.replacingOccurrences(of: ":", with: "")
                    == info.sha256Fingerprint, "\(file)")
            #expect(fields["notBefore"].flatMap(Self.opensslDate) == info.notBefore, "\(file)")
            #expect(fields["notAfter"].flatMap(Self.opensslDate) == info.notAfter, "\(file)")
        }
    }

    /// `sodSignatureValid` against `openssl cms -verify -noverify` (signature, messageDigest and
    /// sid, no chain) on the real SODs and every fault fixture. Two documented differences are
    /// left out: OpenSSL does not compare the contentType attribute with the eContentType
    /// (RFC 5652 §11.1 requires it; `wrong-content-type`), and it matches a `sid` issuer only
    /// byte for byte, so it cannot find Malaysia's DSC, whose SignerInfo writes the issuer in
    /// another RDN order (SOURCES.md).
    @Test func signaturesAgreeWithOpenSSL() throws {
        guard Prerequisites.tool("openssl", package: "openssl") != nil else { return }
        var files: [(name: String, sod: URL, extra: URL?)] = []
        for pki in ["rsa", "ecdsa"] {
            let folder = TestFiles.fixtures.appendingPathComponent("pa-faults/\(pki)")
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            where name != "csca.pem" && name != "wrong-content-type" {
                let dsc = folder.appendingPathComponent("\(name)/dsc.pem")
                files.append(
                    (
                        "\(pki)/\(name)", folder.appendingPathComponent("\(name)/SOD.bin"),
                        FileManager.default.fileExists(atPath: dsc.path) ? dsc : nil
                    ))
            }
        }
        if let samples = TestFiles.shared("gmrtd/sod_samples") {
            for country in RealDocumentTests.samples.map(\.country) where country != "MY" {
                files.append((country, samples.appendingPathComponent("\(country)_EF_SOD.bin"), nil))
            }
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("cms-openssl-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for (name, sodURL, extra) in files {
            let sod = try DocumentSecurityObject(bytes: TestFiles.bytes(sodURL))
            let contentInfo = scratch.appendingPathComponent("content-info.der")
            try Data(try contentInfoBytes(TestFiles.bytes(sodURL))).write(to: contentInfo)
            var arguments = [
                "cms", "-verify", "-noverify", "-inform", "DER", "-in", contentInfo.path, "-out", "/dev/null",
            ]
            var store = TrustStore()
            if let extra {
                arguments += ["-certfile", extra.path]
                try store.add(pemOrDer: TestFiles.bytes(extra))
            }
            let opensslAccepts = Self.openssl(arguments) != nil
            let ours = SignerVerification(sod.signedData, trustStore: store, at: TestFiles.date("2026-06-01"))
            #expect(ours.signatureValid == opensslAccepts, "\(name): ours \(ours.problems)")
        }
    }

    /// The ContentInfo inside EF.SOD's `77` wrapper, as `openssl cms` wants it.
    func contentInfoBytes(_ sod: [UInt8]) throws -> [UInt8] {
        Array(try ASN1Node.parse(sod).child(at: 0, "ContentInfo").encodedBytes)
    }

    func trimZeros(_ hex: String) -> String {
        let trimmed = hex.drop { $0 == "0" }
        return trimmed.isEmpty ? "0" : String(trimmed)
    }

    /// "Jan  1 00:00:00 2024 GMT" → "2024-01-01T00:00:00Z".
    static func opensslDate(_ text: String) -> String? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "MMM d HH:mm:ss yyyy 'GMT'"
        let collapsed = text.split(separator: " ").joined(separator: " ")
        guard let date = formatter.date(from: collapsed) else { return nil }
        return iso8601(date)
    }
}
