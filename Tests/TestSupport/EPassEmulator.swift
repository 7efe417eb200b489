import Foundation
import Glibc
import Testing

/// The third-party ePass emulator (vsmartcard's vicc, BAC) behind the machine's pcscd, started
/// by `../shared/peers/start-vicc-epass.sh`.
///
/// pcscd is one per machine, so `run` holds an exclusive `flock` on `lockPath` for its whole
/// duration; every test that starts that pcscd, in this process or another, takes the same
/// lock. The lock is opened close-on-exec: otherwise pcscd and vicc, started from here, would
/// inherit it and keep it after the test. The emulator is stopped however the body ends.
public enum EPassEmulator {
    public static let readerName = "Virtual PCD 00 00"
    public static let lockPath = "/tmp/emrtd-pcscd.lock"
    public static let peers = Prerequisites.shared.appendingPathComponent("peers")

    /// Where the start script records its PIDs (`PEERS_STATE_DIR`, as the peers' scripts read it).
    public static var stateDirectory: String {
        ProcessInfo.processInfo.environment["PEERS_STATE_DIR"] ?? "/tmp/emrtd-peers"
    }

    /// Starts the emulator, runs `body`, stops it. Returns nil (after recording why) when the
    /// emulator cannot run here.
    public static func run<T>(_ body: () throws -> T) throws -> T? {
        let start = peers.appendingPathComponent("start-vicc-epass.sh").path
        guard FileManager.default.isExecutableFile(atPath: start) else {
            Prerequisites.unavailable(start)
            return nil
        }
        guard Prerequisites.tool("pcscd", package: "pcscd") != nil,
            Prerequisites.tool("vicc", package: "vsmartcard-vpicc") != nil
        else { return nil }
        let lock = open(lockPath, O_CREAT | O_RDWR | O_CLOEXEC, 0o666)
        guard lock >= 0 else {
            Prerequisites.unavailable("a lock on \(lockPath)")
            return nil
        }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else {
                Prerequisites.unavailable("a lock on \(lockPath)")
                return nil
            }
        }
        defer { flock(lock, LOCK_UN) }
        let started = try Subprocess.run(start)
        defer { _ = try? Subprocess.run(peers.appendingPathComponent("stop.sh").path) }
        guard started.status == 0 else {
            Prerequisites.unavailable("a working ePass emulator (start-vicc-epass.sh: \(started.combinedOutput))")
            return nil
        }
        return try body()
    }
}
