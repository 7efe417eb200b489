import Foundation
import Testing

/// What a test needs from outside the repository: `../shared` beside it (real documents,
/// vectors, third-party peers) and programs from Debian packages.
///
/// A missing prerequisite is a skip with a printed reason on a developer's machine and a
/// failure under `CI=true`, where everything must be present.
public enum Prerequisites {
    /// The repository's root folder, found from this file.
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared` beside the repository.
    public static let shared = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared")

    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Records that `what` is missing: an issue under `CI=true`, a printed skip elsewhere.
    public static func unavailable(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if isCI {
            Issue.record("CI=true requires \(what)", sourceLocation: sourceLocation)
        } else {
            print("skipped: \(what) is missing")
        }
    }

    /// `../shared/<relativePath>`, or nil after recording that it is missing.
    public static func shared(_ relativePath: String, sourceLocation: SourceLocation = #_sourceLocation) -> URL? {
        let url = shared.appendingPathComponent(relativePath)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        unavailable(url.path, sourceLocation: sourceLocation)
        return nil
    }

    /// The bytes of `../shared/<relativePath>`, or nil after recording that it is missing.
    public static func sharedBytes(_ relativePath: String, sourceLocation: SourceLocation = #_sourceLocation)
        -> [UInt8]?
    {
        guard let url = shared(relativePath, sourceLocation: sourceLocation),
            let data = FileManager.default.contents(atPath: url.path)
        else { return nil }
        return [UInt8](data)
    }

    /// The path of the program `name` from Debian package `package`, or nil after recording
    /// that it is missing.
    public static func tool(_ name: String, package: String, sourceLocation: SourceLocation = #_sourceLocation)
        -> String?
    {
        for directory in ["/usr/bin", "/usr/sbin", "/usr/local/bin", "/bin"] {
            let path = directory + "/" + name
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        unavailable("\(name) (Debian package \(package))", sourceLocation: sourceLocation)
        return nil
    }

    /// Whether Debian package `package` is installed (dpkg's status), after recording that it is
    /// missing when it is not.
    public static func package(_ package: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let status = try? Subprocess.run("/usr/bin/dpkg-query", ["-W", "-f=${Status}", package])
        if status?.output == "install ok installed" { return true }
        unavailable("the Debian package \(package)", sourceLocation: sourceLocation)
        return false
    }

    /// Where `name`, an executable of this package, is built: beside the test bundle
    /// (`swift build --build-tests` builds it there), whether it is there or not.
    public static func builtExecutablePath(_ name: String) -> String {
        let bundle = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// The path of `name`, an executable of this package built beside the test bundle, or nil
    /// after recording that it is missing.
    public static func builtExecutable(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        let path = builtExecutablePath(name)
        guard FileManager.default.isExecutableFile(atPath: path) else {
            unavailable("\(path) (swift build builds it)", sourceLocation: sourceLocation)
            return nil
        }
        return path
    }
}
