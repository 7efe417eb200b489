import Foundation
import Glibc
import PCSC
import Testing

/// The third-party ePass emulator (vsmartcard's vicc) behind a real pcscd, from `../shared/peers`.
///
/// `run` holds an exclusive `flock` on `/tmp/emrtd-pcscd.lock` for its whole duration, because
/// pcscd is one per machine: any test (of this process or another) that starts emulators takes
/// the same lock. The emulator is stopped (`stop.sh`) however the body ends.
enum EPassEmulator {
    static let readerName = "Virtual PCD 00 00"
    static let peers = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/peers")
    static let lockPath = "/tmp/emrtd-pcscd.lock"

    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Skips with a printed reason outside CI, fails under `CI=true`.
    static func unavailable(_ reason: String) {
        if isCI {
            Issue.record("CI requires the ePass emulator: \(reason)")
        } else {
            print("skipped: \(reason)")
        }
    }

    /// Starts the emulator, runs `body`, stops it. Returns nil (after recording why) when the
    /// emulator cannot run here.
    static func run<T>(_ body: () throws -> T) throws -> T? {
        let start = peers.appendingPathComponent("start-vicc-epass.sh").path
        guard FileManager.default.isExecutableFile(atPath: start) else {
            unavailable("\(start) is missing")
            return nil
        }
        for tool in ["/usr/sbin/pcscd", "/usr/bin/vicc"] where !FileManager.default.isExecutableFile(atPath: tool) {
            unavailable("\(tool) is not installed (Tools/setup.sh installs it)")
            return nil
        }
        let lock = open(lockPath, O_CREAT | O_RDWR, 0o666)
        guard lock >= 0, flock(lock, LOCK_EX) == 0 else {
            unavailable("cannot lock \(lockPath)")
            return nil
        }
        defer {
            flock(lock, LOCK_UN)
            close(lock)
        }
        let started = shell(start)
        defer { _ = shell(peers.appendingPathComponent("stop.sh").path) }
        guard started.status == 0 else {
            unavailable("start-vicc-epass.sh failed: \(started.output)")
            return nil
        }
        return try body()
    }

    /// Stops the emulator but not pcscd (a card leaving the reader), by the PID start-vicc-epass.sh
    /// recorded, and waits until pcscd sees the card gone.
    static func stopEmulatorOnly(context: PCSCContext) throws {
        let state = ProcessInfo.processInfo.environment["PEERS_STATE_DIR"] ?? "/tmp/emrtd-peers"
        let records = try String(contentsOfFile: state + "/pids", encoding: .utf8)
        let line = records.split(separator: "\n").first { $0.hasPrefix("vicc-epass ") }
        guard let pid = line?.split(separator: " ").dropFirst().first.flatMap({ pid_t($0) }) else {
            Issue.record("no vicc-epass PID recorded in \(state)/pids")
            return
        }
        // vicc does not end promptly on SIGTERM (stop.sh also ends up using SIGKILL).
        kill(pid, SIGKILL)
        for _ in 0..<50 {
            let present = try context.readers().contains { $0.name == readerName && $0.isCardPresent }
            if !present { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        Issue.record("pcscd still reports a card 5 s after the emulator ended")
    }

    /// Runs a program, returning its exit status and its merged output. (posix_spawn and waitpid:
    /// Foundation's `Process.waitUntilExit` was seen hanging here after the child had exited.)
    static func shell(_ path: String, _ arguments: [String] = [], environment: [String: String] = [:]) -> (
        status: Int32, output: String
    ) {
        let outputPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("emrtd-test-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).log").path
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0)=\($1)" }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard spawned == 0 else { return (-1, "cannot run \(path): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : -1
        return (exitStatus, output)
    }
}
