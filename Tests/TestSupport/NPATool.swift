import Foundation
import Glibc
import Testing

/// OpenSC's `npa-tool`, a third-party PACE terminal (OpenPACE's terminal side), built from
/// Debian's `opensc` source by `../shared/peers/build-npa-tool.sh` (Debian 12's opensc package is
/// built without OpenPACE and ships no npa-tool).
///
/// The build (about 2 minutes on 2 cores; `apt-get source`, so it needs deb.debian.org) goes to
/// `.build/peers/opensc` and is kept there: the first test run on a machine builds it, later runs
/// reuse it. An exclusive `flock` keeps two test processes from building it at once.
public enum NPATool {
    /// Where the build goes.
    public static let buildDirectory = Prerequisites.repositoryRoot.appendingPathComponent(".build/peers/opensc")

    /// What build-npa-tool.sh needs besides ../shared.
    public static let packages = [
        "libeac-dev", "libssl-dev", "libpcsclite-dev", "gcc", "make", "autoconf", "automake", "libtool",
        "pkg-config", "flex", "libltdl-dev", "libreadline-dev", "zlib1g-dev", "dpkg-dev",
    ]

    /// The built npa-tool (a libtool wrapper: run it where it is), building it first when it is
    /// not there; nil after recording why it cannot be had.
    public static func path(sourceLocation: SourceLocation = #_sourceLocation) throws -> String? {
        let script = PeerRig.peers.appendingPathComponent("build-npa-tool.sh").path
        guard FileManager.default.isExecutableFile(atPath: script) else {
            Prerequisites.unavailable(script, sourceLocation: sourceLocation)
            return nil
        }
        let found = packages.map { Prerequisites.package($0, sourceLocation: sourceLocation) }
        guard !found.contains(false) else { return nil }
        let parent = buildDirectory.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        let lockPath = parent.appendingPathComponent("npa-tool.lock").path
        return try FileLock.holding(lockPath, sourceLocation: sourceLocation) {
            if let built = built() { return built }
            // A build that stopped halfway leaves a source tree the script cannot unpack over.
            try? FileManager.default.removeItem(at: buildDirectory)
            let result = try Subprocess.run(script, [buildDirectory.path])
            guard result.status == 0, let built = built() else {
                Prerequisites.unavailable(
                    "a working npa-tool build (build-npa-tool.sh: \(result.combinedOutput))",
                    sourceLocation: sourceLocation
                )
                return nil
            }
            return built
        }
    }

    /// `<buildDirectory>/opensc-*/src/tools/npa-tool` when it is built.
    private static func built() -> String? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: buildDirectory.path)) ?? []
        for entry in entries.sorted() where entry.lowercased().hasPrefix("opensc-") {
            let tool = buildDirectory.appendingPathComponent(entry).appendingPathComponent("src/tools/npa-tool").path
            if FileManager.default.isExecutableFile(atPath: tool) { return tool }
        }
        return nil
    }
}
