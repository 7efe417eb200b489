import Foundation
import Glibc
import LDS
import Testing

/// `emrtd read --reader` behind a real pcscd through vsmartcard's vpcd: on the chip simulator
/// (`Tools/simulator.sh`, its own pcscd in private namespaces) and on the third-party ePass
/// emulator of ../shared/peers (the machine's pcscd socket, so it holds the shared lock
/// `/tmp/emrtd-pcscd.lock` as every test starting that pcscd does). Skips with a reason when
/// the rig cannot run here, fails instead under `CI=true`.
@Suite(.serialized) struct PCSCReadTests {
    /// The `emrtd` executable built beside the test bundle.
    static var emrtd: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("emrtd")
    }

    /// Why the PC/SC rig cannot run here, or nil.
    static func missingRequirement() -> String? {
        if getuid() != 0 { return "not root (pcscd in a network namespace needs it)" }
        let needed = [
            "/usr/sbin/pcscd", "/etc/reader.conf.d/vpcd", "/usr/bin/unshare", "/usr/bin/nsenter", "/usr/bin/python3",
            emrtd.path,
        ]
        for path in needed where !FileManager.default.fileExists(atPath: path) { return "\(path) is missing" }
        return nil
    }

    static func skipUnlessRigAvailable() -> Bool {
        guard let missing = missingRequirement() else { return false }
        if SharedData.isCI {
            Issue.record("CI=true but the PC/SC rig cannot run: \(missing)")
        } else {
            print("skipped: \(missing)")
        }
        return true
    }

    /// Runs a program; returns its exit status and standard output (standard error is appended
    /// when the program fails, for the test message). It is spawned and reaped with
    /// posix_spawn/waitpid and its output goes to files: the daemons a start script leaves
    /// running inherit descriptors, which keep pipes open and Foundation's `Process` from ever
    /// seeing the script end.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, output: String
    ) {
        let directory = try temporaryDirectory("emrtd-run")
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
        guard spawned == 0 else { throw PCSCRigError("cannot start \(executable): errno \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        var text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        if exitStatus != 0 { text += (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }
        return (exitStatus, text)
    }

    struct PCSCRigError: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    static func temporaryDirectory(_ name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func simulatorBehindPCSCD() throws {
        if Self.skipUnlessRigAvailable() { return }
        let state = try Self.temporaryDirectory("emrtd-simulator")
        defer { try? FileManager.default.removeItem(at: state) }
        let script = SharedData.repositoryRoot.appendingPathComponent("Tools/simulator.sh").path
        let environment = ["EMRTD_SIMULATOR_STATE": state.path, "EMRTD_BIN": Self.emrtd.path]
        let csca = state.appendingPathComponent("csca.pem").path
        let started = try Self.run(script, ["start", "--rich", "--csca-out", csca], environment: environment)
        defer { _ = try? Self.run(script, ["stop"], environment: environment) }
        try #require(started.status == 0, "simulator.sh start: \(started.output)")
        let read = try Self.run(
            Self.emrtd.path,
            [
                "read", "--reader", "Virtual PCD 00 00", "--mrz", "L898902C", "690806", "940623", "--csca", csca,
                "--no-builtin", "--json",
            ],
            environment: ["PCSCLITE_CSOCK_NAME": state.appendingPathComponent("run/pcscd.comm").path])
        try #require(read.status == 0, "emrtd read: \(read.output)")
        let document = try JSONValue.parse(read.output)
        #expect(document["authenticationStatus"]?["data"]?["status"] == "authenticated")
        #expect(document["accessControlProtocolUsed"] == "bac")
        #expect(document["deniedFiles"] == .array(["dg3"]))
        #expect(document["personsToNotify"] != .null && document["displayedSignature"] != .null)
    }

    /// The vsmartcard ePass (BAC) has no EF.SOD and a malformed EF.COM: the document says exactly
    /// that, and the data is `denied`.
    @Test func ePassEmulator() throws {
        if Self.skipUnlessRigAvailable() { return }
        guard let peers = SharedData.url("peers/start-vicc-epass.sh")?.deletingLastPathComponent() else { return }
        let lock = open("/tmp/emrtd-pcscd.lock", O_CREAT | O_RDWR, 0o666)
        try #require(lock >= 0, "cannot open /tmp/emrtd-pcscd.lock")
        // Another test holding the machine's pcscd: wait up to two minutes, then give up.
        var locked = false
        for _ in 0..<240 {
            if flock(lock, LOCK_EX | LOCK_NB) == 0 {
                locked = true
                break
            }
            usleep(500_000)
        }
        guard locked else {
            close(lock)
            if SharedData.isCI {
                Issue.record("/tmp/emrtd-pcscd.lock stayed taken for 2 minutes")
            } else {
                print("skipped: another test holds the machine's pcscd (/tmp/emrtd-pcscd.lock)")
            }
            return
        }
        defer {
            flock(lock, LOCK_UN)
            close(lock)
        }
        let state = try Self.temporaryDirectory("emrtd-peers")
        defer { try? FileManager.default.removeItem(at: state) }
        let environment = ["PEERS_STATE_DIR": state.path]
        let started = try Self.run(
            peers.appendingPathComponent("start-vicc-epass.sh").path, [], environment: environment)
        defer { _ = try? Self.run(peers.appendingPathComponent("stop.sh").path, [], environment: environment) }
        try #require(started.status == 0, "start-vicc-epass.sh: \(started.output)")
        let read = try Self.run(
            Self.emrtd.path,
            [
                "read", "--reader", "Virtual PCD 00 00", "--mrz", "L898902C", "690806", "940623", "--no-builtin",
                "--json",
            ])
        try #require(read.status == 0, "emrtd read: \(read.output)")
        let document = try JSONValue.parse(read.output)
        guard case .array(let warnings)? = document["warnings"] else {
            Issue.record("no warnings array")
            return
        }
        #expect(warnings.contains("EF.SOD is not on the chip (6A82)"))
        #expect(
            warnings.contains {
                if case .string(let text) = $0 { text.hasPrefix("EF.COM is malformed") } else { false }
            })
        #expect(document["ldsMasterFile"]?["sod"] == .null && document["ldsMasterFile"]?["com"] != .null)
        #expect(document["ldsVersion"] == .null)
        #expect(document["authenticationStatus"]?["data"]?["status"] == "denied")
        #expect(document["accessControlProtocolUsed"] == "bac")
        #expect(document["machineReadableZoneInformation"]?["td3"]?["documentNumber"]?["value"] == "L898902C")
    }
}
