import Foundation
import Glibc

/// A program the bench runs to its end (`emrtd`, Python), timed from outside, with its peak
/// resident memory from `wait4`'s `ru_maxrss`.
///
/// posix_spawn and wait4 rather than Foundation's `Process`: `Process` gives no resource usage
/// of the one child, and getrusage(RUSAGE_CHILDREN) keeps the largest of every child so far.
struct ChildProcess {
    struct Outcome {
        let status: Int32
        let seconds: Double
        /// The child's peak resident set, in bytes.
        let peakResidentBytes: Int
    }

    /// Runs `executable` with `arguments`, standard input from `input` (default /dev/null) and
    /// standard output into `output` (default /dev/null), standard error discarded (its warnings
    /// and summaries would break the table).
    static func run(
        _ executable: String, _ arguments: [String], input: String = "/dev/null", output: String = "/dev/null"
    )
        throws -> Outcome
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let start = DispatchTime.now().uptimeNanoseconds
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw BenchFailure("cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        // WIFEXITED / WEXITSTATUS, which Swift does not import; a signal reads as 128 + its number.
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        // Linux gives ru_maxrss in KiB.
        return Outcome(status: exitStatus, seconds: seconds, peakResidentBytes: usage.ru_maxrss * 1024)
    }

    /// `name` built beside the running bench (`swift build -c release` builds both there).
    static func sibling(_ name: String) throws -> String {
        let bench = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let path = bench.deletingLastPathComponent().appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchFailure(
                "\(path) is missing: build it beside the bench (swift build -c release --product \(name))")
        }
        return path
    }
}
