import Foundation
import Testing

/// `../shared` beside the repository: real documents and vectors. Missing outside CI is a
/// skip with a printed reason; missing under `CI=true` is a failure.
enum SharedData {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared")

    /// The folder `../shared/<path>`, or nil (after recording why) when it is absent.
    static func folder(_ path: String) -> URL? {
        let url = root.appendingPathComponent(path)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        let reason = "\(url.path) is missing"
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record("CI requires ../shared: \(reason)")
        } else {
            print("skipped: \(reason)")
        }
        return nil
    }
}
