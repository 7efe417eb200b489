import Foundation
import Testing

/// `../shared` beside the repository (the test data and third-party peers), found from this file.
enum SharedData {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let root = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared")

    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// The URL of `relativePath` under `../shared`, or nil after printing why the test skips;
    /// in CI a missing file fails the test instead.
    static func url(_ relativePath: String, sourceLocation: SourceLocation = #_sourceLocation) -> URL? {
        let url = root.appendingPathComponent(relativePath)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        if isCI {
            Issue.record("CI=true but \(url.path) is missing", sourceLocation: sourceLocation)
        } else {
            print("skipped: \(url.path) is missing (../shared is not beside the repository)")
        }
        return nil
    }
}
