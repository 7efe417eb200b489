import Foundation
import TestSupport
import Testing

/// Test data from `<repo root>/../shared/data` and tools from Debian packages, through
/// TestSupport's `Prerequisites` (a skip with a printed reason, a failure when `CI=true`).
enum SharedData {
    static let dataDirectory = Prerequisites.shared.appendingPathComponent("data")

    static var isAvailable: Bool { Prerequisites.shared("data") != nil }

    /// The bytes of `path` (relative to ../shared/data), nil (after recording) when absent.
    static func file(_ path: String) -> [UInt8]? { Prerequisites.sharedBytes("data/" + path) }

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

    /// The path of an executable, nil (after recording) when absent.
    static func tool(_ name: String, package: String) -> String? { Prerequisites.tool(name, package: package) }

    /// Runs a tool and returns its exit status.
    static func run(_ path: String, _ arguments: [String]) throws -> Int32 {
        try Subprocess.run(path, arguments).status
    }

    /// A fresh temporary directory for one test.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lds-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
