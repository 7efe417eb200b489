import Foundation
import Testing

@testable import CMS

/// Certificate fields compared with what the `openssl` CLI reads from the same files.
@Suite struct OpenSSLDifferentialTests {
    static func openssl(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: output, as: UTF8.self) : nil
    }

    @Test func certificateFields() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { Issue.record("CI requires the openssl CLI") }
            print("skipped: /usr/bin/openssl is missing (Debian package openssl)")
            return
        }
        guard let folder = TestFiles.shared("gmrtd/sod_samples") else { return }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix("_CSCA.der") || $0.hasSuffix("_DSC.der") }.sorted()
        #expect(files.count >= 25)
        for file in files {
            let path = folder.appendingPathComponent(file).path
            let info = try #require(try certificateInfos(pemOrDer: TestFiles.bytes(URL(fileURLWithPath: path))).first)
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
                    == info.fingerprintSha256.map { String(format: "%02X", $0) }.joined(), "\(file)")
            #expect(fields["notBefore"].flatMap(Self.opensslDate) == info.notBefore, "\(file)")
            #expect(fields["notAfter"].flatMap(Self.opensslDate) == info.notAfter, "\(file)")
        }
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
