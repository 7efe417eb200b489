import Foundation

/// Where the reader's default CSCA bundle lives: `masterlist/csca.pem` in the repository,
/// built from a verified master list by `emrtd masterlist import` (see masterlist/README.md).
public enum DefaultTrustBundle {
    /// Overrides the location, e.g. for an installed reader.
    public static let environmentVariable = "EMRTD_CSCA_BUNDLE"
    static let relativePath = "masterlist/csca.pem"

    /// `$EMRTD_CSCA_BUNDLE`, else `masterlist/csca.pem` in the first of the working directory
    /// and the directories above the running executable that has a `masterlist/` folder.
    public static var location: URL? {
        if let path = ProcessInfo.processInfo.environment[environmentVariable], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
        var candidates = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
        var directory = executable.deletingLastPathComponent()
        while directory.pathComponents.count > 1 {
            candidates.append(directory)
            directory = directory.deletingLastPathComponent()
        }
        let folder = candidates.first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("masterlist").path)
        }
        return folder?.appendingPathComponent(relativePath)
    }

    /// The default bundle's certificates; an empty store when none has been built.
    public static func load() throws(CMSError) -> TrustStore {
        guard let location, let data = FileManager.default.contents(atPath: location.path) else { return TrustStore() }
        var store = TrustStore()
        try store.add(pemOrDer: [UInt8](data))
        return store
    }
}
