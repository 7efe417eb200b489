import Glibc
import Testing

/// An exclusive `flock` held while a test body runs: pcscd is one per machine and the npa-tool
/// build one per checkout, so tests in this process and in others take turns on a lock file. The
/// descriptor is close-on-exec, so daemons started inside do not inherit the lock.
public enum FileLock {
    /// Runs `body` holding the lock on `path`; nil (after recording why) when the lock cannot be had.
    public static func holding<T>(
        _ path: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T?
    ) rethrows -> T? {
        let lock = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o666)
        guard lock >= 0 else {
            Prerequisites.unavailable("a lock on \(path)", sourceLocation: sourceLocation)
            return nil
        }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else {
                Prerequisites.unavailable("a lock on \(path)", sourceLocation: sourceLocation)
                return nil
            }
        }
        defer { flock(lock, LOCK_UN) }
        return try body()
    }
}
