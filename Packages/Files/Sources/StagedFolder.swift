import Foundation

/// A folder replaced whole (a dump): its files are written into a fresh hidden folder beside
/// the destination (`AtomicFile` for each), and only when every one is on the disk does that
/// folder take the destination's place. A failure before then leaves the destination as it
/// was. Two renames swap them (the old folder aside, the new one in), then the old one is
/// removed: between the renames the destination is absent for an instant, and a crash there
/// leaves the old folder beside it as `.NAME.emrtd-RANDOM`.
public struct StagedFolder: Sendable {
    /// The folder this one becomes.
    public let destination: String
    /// Where the files are written until `commit`.
    let path: String
    /// Whether a folder was at `destination` when staging began.
    let replacing: Bool

    /// A fresh staging folder beside `destination`, whose parent folders are created.
    /// - Throws: `.notAFile` when `destination` is anything but a folder (a symbolic link
    ///   included), `.cannotWrite` when the staging folder cannot be made.
    public init(for destination: String) throws(FilesError) {
        self.destination = destination
        let existingMode = try Self.directoryMode(destination)
        replacing = existingMode != nil
        let parent = URL(fileURLWithPath: destination).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw FilesError(.cannotWrite, "cannot create \(parent.path): \(error.localizedDescription)")
        }
        while true {
            let candidate = AtomicFile.temporaryName(beside: destination)
            if mkdir(candidate, 0o777) == 0 {
                path = candidate
                break
            }
            guard errno == EEXIST else {
                throw FilesError(.cannotWrite, "cannot write \(destination): \(errorText())")
            }
        }
        if let existingMode { chmod(path, existingMode) }
    }

    /// Whether a directory is at `destination` (false: nothing is there).
    /// - Throws: `.notAFile` when anything else is, which `init` would refuse.
    public static func existsAsDirectory(_ destination: String) throws(FilesError) -> Bool {
        try directoryMode(destination) != nil
    }

    /// The permissions of the directory at `destination`, nil when nothing is there.
    /// - Throws: `.notAFile` when the path names anything else (a link is not followed).
    static func directoryMode(_ destination: String) throws(FilesError) -> mode_t? {
        var status = stat()
        guard lstat(destination, &status) == 0 else {
            guard errno == ENOENT else {
                throw FilesError(.cannotWrite, "cannot write \(destination): \(errorText())")
            }
            return nil
        }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFDIR else {
            throw FilesError(.notAFile, "\(destination) is \(AtomicFile.describe(kind)), not a directory: not replaced")
        }
        return status.st_mode & 0o7777
    }

    /// What the error messages say was kept.
    var kept: String { replacing ? "\(destination) was left as it was" : "nothing was written" }

    /// Writes the file `name` into the folder.
    public func write(_ bytes: [UInt8], named name: String, mode: mode_t = 0o666) throws(FilesError) {
        do throws(FilesError) {
            try AtomicFile.replace(path + "/" + name, with: bytes, mode: mode, keepingMode: false)
        } catch {
            discard()
            throw FilesError(.cannotWrite, "cannot write \(destination)/\(name): \(error.reason); \(kept)")
        }
    }

    /// Puts the folder in the destination's place and removes the old one.
    public func commit() throws(FilesError) {
        let failure = { () -> FilesError in
            let error = FilesError(.cannotWrite, "cannot write \(destination): \(errorText()); \(kept)")
            discard()
            return error
        }
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw failure() }
        let flushed = fsync(folder) == 0 || errno == EINVAL
        close(folder)
        guard flushed else { throw failure() }
        guard replacing else {
            guard rename(path, destination) == 0 else { throw failure() }
            AtomicFile.syncFolder(containing: destination)
            return
        }
        let aside = AtomicFile.temporaryName(beside: destination)
        guard rename(destination, aside) == 0 else { throw failure() }
        guard rename(path, destination) == 0 else {
            let error = failure()
            rename(aside, destination)
            throw error
        }
        AtomicFile.syncFolder(containing: destination)
        // The new folder is in place; an old one that cannot be removed stays beside it, hidden.
        try? FileManager.default.removeItem(atPath: aside)
    }

    /// Removes the staging folder and what was written into it.
    public func discard() { try? FileManager.default.removeItem(atPath: path) }
}
