import Foundation
import Glibc

/// An exclusive `flock` on `trust.lock` in a trust folder, held while a command reads and rewrites
/// the folder (`trust update`, `trust build`, `masterlist` importing into the default bundle), so
/// that two at once take turns instead of one losing its change or leaving `SOURCES` and
/// `csca.pem` disagreeing. Released when the process ends (the descriptor is close-on-exec).
final class TrustFolderLock {
    /// The lock file's name, one of the folder's own names (never taken as an input).
    static let fileName = "trust.lock"
    private let descriptor: Int32

    /// Waits for the lock on `folder`, saying so on stderr when another emrtd holds it.
    init(_ folder: URL) throws(CommandFailure) {
        let path = folder.appendingPathComponent(Self.fileName).path
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CommandFailure("cannot lock the trust folder (\(path)): \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw CommandFailure("\(path) is not a regular file: the trust folder cannot be locked")
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            printError("emrtd: waiting for another emrtd changing \(folder.path)")
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    close(descriptor)
                    throw CommandFailure("cannot lock \(path): \(String(cString: strerror(errno)))")
                }
            }
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
