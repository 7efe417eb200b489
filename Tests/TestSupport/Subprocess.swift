import Foundation
import Glibc

/// Running a program to its end from a test.
///
/// posix_spawn and waitpid with the output in files, not Foundation's `Process` and pipes: the
/// daemons a start script leaves running (pcscd, vicc) inherit descriptors, which keep pipes
/// open, and `Process.waitUntilExit` was seen hanging here after the child had exited.
public enum Subprocess {
    public struct Result: Sendable {
        public let status: Int32
        public let output: String
        public let errorOutput: String
        /// Standard output, then standard error: for test messages.
        public var combinedOutput: String { output + errorOutput }
    }

    public struct LaunchError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `executable` with `arguments` and the environment merged with `environment`;
    /// standard input is /dev/null.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String] = [], environment: [String: String] = [:])
        throws -> Result
    {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("emrtd-subprocess-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outputPath = directory.appendingPathComponent("stdout").path
        let errorPath = directory.appendingPathComponent("stderr").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw LaunchError(description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS, which Swift does not import; a signal reads as 128 + its number.
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Result(
            status: exitStatus,
            output: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "",
            errorOutput: (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "")
    }
}
