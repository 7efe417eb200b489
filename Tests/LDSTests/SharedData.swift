import Foundation
import Testing

/// Test data from `<repo root>/../shared` and tools from Debian packages: a test that needs
/// them skips with a printed reason when they are missing, and fails when `CI=true`.
enum SharedData {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let dataDirectory = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data")

    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Records a missing prerequisite: an issue in CI, a printed skip elsewhere. Returns false.
    static func unavailable(_ what: String) -> Bool {
        if isCI {
            Issue.record("\(what) is missing (required when CI=true)")
        } else {
            print("skipped: \(what) is missing")
        }
        return false
    }

    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: dataDirectory.path) || unavailable("../shared/data")
    }

    /// The bytes of `path` (relative to ../shared/data), nil (after recording) when absent.
    static func file(_ path: String) -> [UInt8]? {
        let url = dataDirectory.appendingPathComponent(path)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            _ = unavailable("../shared/data/\(path)")
            return nil
        }
        return [UInt8](data)
    }

    /// Every file under ../shared/data whose relative path satisfies `include`, sorted.
    static func files(where include: (String) -> Bool) -> [String] {
        guard isAvailable,
            let enumerator = FileManager.default.enumerator(atPath: dataDirectory.path)
        else { return [] }
        return enumerator.compactMap { $0 as? String }.filter { path in
            var isDirectory: ObjCBool = false
            let full = dataDirectory.appendingPathComponent(path).path
            return FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory) && !isDirectory.boolValue
                && include(path)
        }.sorted()
    }

    /// The path of an executable on PATH, nil (after recording) when absent.
    static func tool(_ name: String, package: String) -> String? {
        for directory in ["/usr/bin", "/usr/local/bin", "/bin"] {
            let path = directory + "/" + name
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        _ = unavailable("\(name) (Debian package \(package))")
        return nil
    }

    /// Runs a tool and returns its exit status.
    static func run(_ path: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// A fresh temporary directory for one test.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lds-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
