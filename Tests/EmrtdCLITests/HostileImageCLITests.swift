import Foundation
import JSON
import TestSupport
import Testing

/// Issue 43's hostile faces (Fuzz/Seeds/dg2, written by make-image-seeds.py: 2×2 precincts over
/// 2048² and 4096², 65,535 quality layers) cost OpenJPEG seconds and gigabytes or crashed the
/// reader; `parse`, `read` and `report` now refuse them from their headers with a warning naming
/// the face, and keep the rest of the document.
struct HostileImageCLITests {
    static let faces = ["face-precincts-2048", "face-precincts-4096", "face-layers-65535"]

    static func face(_ name: String) throws -> String {
        let path = Prerequisites.repositoryRoot.appendingPathComponent("Fuzz/Seeds/dg2/\(name)").path
        #expect(FileManager.default.fileExists(atPath: path), "\(path) missing: run Fuzz/Seeds/make-image-seeds.py")
        return path
    }

    @Test(arguments: faces)
    func parseWarnsAndKeepsTheRecord(name: String) throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let result = try Subprocess.run(emrtd, ["parse", try Self.face(name)])
        #expect(result.status == 0, "\(result.combinedOutput)")
        let json = try JSONValue.parse(result.output)
        guard case .array(let warnings)? = json["warnings"] else {
            Issue.record("no warnings in \(result.output.prefix(200))")
            return
        }
        #expect(
            warnings.contains { warning in
                guard case .string(let text) = warning else { return false }
                return text.hasPrefix("face image 1 of 1 (JPEG 2000, ") && text.contains("is refused")
            }, "\(warnings)")
        #expect(json["kind"] != nil && json["model"] != nil)
    }

    /// A simulated chip serving the 4096² face as DG2: `read` and `report` finish, the face's
    /// warning is in the JSON and on the page, DG1 is read as before.
    @Test func readAndReportKeepTheOtherData() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let dump = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-face-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dump) }
        let specimen = ["--mrz", "L898902C", "690806", "940623"]
        let written = try Subprocess.run(emrtd, ["read", "--simulator", "--no-render", "--out", dump.path] + specimen)
        #expect(written.status == 0, "\(written.combinedOutput)")
        let group = dump.appendingPathComponent("DG2.bin")
        try FileManager.default.removeItem(at: group)
        try FileManager.default.copyItem(atPath: try Self.face("face-precincts-4096"), toPath: group.path)
        let read = try Subprocess.run(emrtd, ["read", "--simulator", dump.path, "--json"] + specimen)
        #expect(read.status == 0 || read.status == 3, "\(read.errorOutput)")
        #expect(read.output.contains("face image 1 of 1 (JPEG 2000, 4096×4096"), "\(read.combinedOutput.prefix(400))")
        #expect(read.output.contains("L898902C"))
        let page = dump.appendingPathComponent("report.html")
        let report = try Subprocess.run(emrtd, ["report", dump.path, "--report", page.path])
        #expect(report.status == 0 || report.status == 3, "\(report.combinedOutput)")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("face image 1 of 1 (JPEG 2000, 4096×4096"))
        #expect(html.contains("L898902C"))
    }
}
