import Foundation

/// Every file emrtd writes (dumps' files, reports, trust bundles, images, keys files) goes
/// through `write`, so that a full disk, a crash or a refused path never leaves half a file or
/// destroys the old one: the bytes go to a fresh temporary file beside the target (`O_EXCL`),
/// are flushed to the disk, and the temporary file is renamed over the target, then the folder
/// is flushed too. Only a regular file is ever replaced: a symbolic link (as the last
/// component; the folders above it may be links), a device, a fifo or a folder at the path is
/// refused, never written through or replaced.
public enum AtomicFile {
    /// Writes `bytes` as the file at `path`. A new file gets `mode` (less the umask: `0o600` for
    /// a private key); a replaced file keeps its permissions.
    /// - Throws: `FilesError` `.notAFile` for a path that is not a regular file, `.cannotWrite`
    ///   when writing fails (the temporary file removed, the old file intact, and the message
    ///   says so).
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o666) throws(FilesError) {
        let existingMode = try regularFileMode(path)
        do throws(FilesError) {
            try replace(path, with: bytes, mode: existingMode ?? mode, keepingMode: existingMode != nil)
        } catch {
            throw FilesError(
                .cannotWrite,
                "cannot write \(path): \(error.reason); "
                    + (existingMode == nil ? "nothing was written" : "the old file was kept"))
        }
    }

    /// The temporary file, the flush and the rename; on failure the temporary file is removed
    /// and the error's reason is the system's alone (the caller says what was kept).
    static func replace(_ path: String, with bytes: [UInt8], mode: mode_t, keepingMode: Bool) throws(FilesError) {
        let (temporary, descriptor) = try createTemporary(beside: path, mode: mode)
        defer { close(descriptor) }
        let failure = { () -> FilesError in
            let error = FilesError(.cannotWrite, errorText())
            unlink(temporary)
            return error
        }
        // The umask applies to a new file's mode, not to a replaced file's kept one.
        if keepingMode, fchmod(descriptor, mode) != 0 { throw failure() }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress.map { $0 + written }, bytes.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure()
            }
            written += count
        }
        guard fsync(descriptor) == 0, rename(temporary, path) == 0 else { throw failure() }
        syncFolder(containing: path)
    }

    /// Whether a regular file is at `path` (false: nothing is there).
    /// - Throws: `.notAFile` when the path names anything else, which `write` would refuse.
    public static func existsAsRegularFile(_ path: String) throws(FilesError) -> Bool {
        try regularFileMode(path) != nil
    }

    /// The permissions of the regular file at `path`, nil when nothing is there.
    /// - Throws: `.notAFile` when the path names anything else (a link is not followed).
    static func regularFileMode(_ path: String) throws(FilesError) -> mode_t? {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            guard errno == ENOENT else { throw FilesError(.cannotWrite, "cannot write \(path): \(errorText())") }
            return nil
        }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG else {
            throw FilesError(.notAFile, "\(path) is \(describe(kind)), not a regular file: not replaced")
        }
        return status.st_mode & 0o7777
    }

    /// A fresh file beside `path` (`.NAME.emrtd-RANDOM`), created with `O_EXCL` so that nothing
    /// already there is opened, and its open descriptor.
    private static func createTemporary(beside path: String, mode: mode_t) throws(FilesError) -> (String, Int32) {
        while true {
            let candidate = temporaryName(beside: path)
            let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
            if descriptor >= 0 { return (candidate, descriptor) }
            if errno != EEXIST { throw FilesError(.cannotWrite, errorText()) }
        }
    }

    /// Whether `name` (a file name, no folder) is one of `write`'s temporary files, which a crash
    /// mid-write leaves behind for the folder's owner to remove.
    public static func isTemporaryName(_ name: String) -> Bool {
        name.hasPrefix(".") && name.contains(temporaryMarker)
    }

    private static let temporaryMarker = ".emrtd-"

    /// A name beside `path` that no dump, bundle or report has: hidden, with a random suffix
    /// (the file name is shortened so that the whole stays within NAME_MAX).
    static func temporaryName(beside path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let name = "." + url.lastPathComponent.prefix(100) + temporaryMarker + suffix
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Flushes the folder holding `path`, so that a rename into it survives a power cut. Some
    /// file systems cannot flush a folder; the rename stands all the same, so a failure here
    /// is not one of the write.
    static func syncFolder(containing path: String) {
        let folder = open(
            URL(fileURLWithPath: path).deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return }
        fsync(folder)
        close(folder)
    }

    /// What a file type is, in words ("a symbolic link").
    static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFREG: "a regular file"
        case S_IFLNK: "a symbolic link"
        case S_IFDIR: "a directory"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFIFO: "a fifo"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }
}

/// The text of the current `errno` ("No space left on device").
func errorText() -> String { String(cString: strerror(errno)) }
