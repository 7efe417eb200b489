import Foundation
import Glibc
import Testing

/// The third-party emulators of `../shared/peers` (vsmartcard's vicc) behind the machine's
/// pcscd, which their start scripts start in a private network namespace.
///
/// pcscd is one per machine, so `run` holds an exclusive `flock` on `lockPath` for its whole
/// duration; every test that starts that pcscd, in this process or another, takes the same
/// lock. The lock is opened close-on-exec: otherwise pcscd and vicc, started from here, would
/// inherit it and keep it after the test. The emulator is stopped (`stop.sh`, by the PIDs the
/// start script recorded) however the body ends.
public enum PeerRig {
    public static let lockPath = "/tmp/emrtd-pcscd.lock"
    public static let peers = Prerequisites.shared.appendingPathComponent("peers")

    /// Where the start scripts record their PIDs (`PEERS_STATE_DIR`, as the peers' scripts read it).
    public static var stateDirectory: String {
        ProcessInfo.processInfo.environment["PEERS_STATE_DIR"] ?? "/tmp/emrtd-peers"
    }

    /// Runs `peers/<script>`, then `body`, then `stop.sh`. Returns nil (after recording why)
    /// when a program in `tools` (name, Debian package), a package in `packages`, or a working
    /// emulator is missing.
    static func run<T>(
        _ script: String, emulator: String, tools: [(name: String, package: String)], packages: [String],
        sourceLocation: SourceLocation, _ body: () throws -> T
    ) throws -> T? {
        let start = peers.appendingPathComponent(script).path
        guard FileManager.default.isExecutableFile(atPath: start) else {
            Prerequisites.unavailable(start, sourceLocation: sourceLocation)
            return nil
        }
        // Every one checked, so that a skip names all that is missing.
        let toolsFound = tools.map { Prerequisites.tool($0.name, package: $0.package, sourceLocation: sourceLocation) }
        let packagesFound = packages.map { Prerequisites.package($0, sourceLocation: sourceLocation) }
        guard !toolsFound.contains(nil), !packagesFound.contains(false) else { return nil }
        return try FileLock.holding(lockPath, sourceLocation: sourceLocation) {
            let started = try Subprocess.run(start)
            defer { _ = try? Subprocess.run(peers.appendingPathComponent("stop.sh").path) }
            guard started.status == 0 else {
                Prerequisites.unavailable(
                    "a working \(emulator) (\(script): \(started.combinedOutput))", sourceLocation: sourceLocation)
                return nil
            }
            return try body()
        }
    }
}

/// The third-party ePass emulator (vicc `--type ePass`, ICAO passport with BAC), started by
/// `../shared/peers/start-vicc-epass.sh` in the reader "Virtual PCD 00 00".
public enum EPassEmulator {
    public static let readerName = "Virtual PCD 00 00"
    public static let lockPath = PeerRig.lockPath
    public static let peers = PeerRig.peers
    public static var stateDirectory: String { PeerRig.stateDirectory }

    /// Starts the emulator, runs `body`, stops it. Returns nil (after recording why) when the
    /// emulator cannot run here.
    public static func run<T>(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T) throws -> T? {
        try PeerRig.run(
            "start-vicc-epass.sh", emulator: "ePass emulator",
            tools: [("pcscd", "pcscd"), ("vicc", "vsmartcard-vpicc"), ("patch", "patch")],
            packages: ["vsmartcard-vpcd", "python3-pyscard", "python3-pycryptodome", "python3-pil"],
            sourceLocation: sourceLocation, body)
    }
}

/// The third-party nPA emulator (vicc `--type nPA`: a German eID card whose PACE is OpenPACE's
/// chip side), started by `../shared/peers/start-vicc-npa.sh` in the reader "Virtual PCD 00 01".
/// It offers PACE with ECDH Generic Mapping, AES-128 and brainpoolP256r1, and holds the German
/// eID application, not the ICAO eMRTD one: SELECT of the eMRTD AID answers 6A82.
///
/// The first start on a machine builds OpenPACE's Python bindings from Debian's `openpace`
/// source package (`apt-get source`, so it needs deb.debian.org; about 3 s) into the peers'
/// state directory.
public enum NPAEmulator {
    public static let readerName = "Virtual PCD 00 01"
    /// The card access number vicc's nPA is created with.
    public static let can = "222222"
    /// The MRZ of vicc's nPA (TD1, document T22000129, born 1964-08-12, expiring 2020-10-31):
    /// PACE's MRZ password input T22000129364081252010315.
    public static let documentNumber = "T22000129"
    public static let dateOfBirth = "640812"
    public static let dateOfExpiry = "201031"

    /// Starts the emulator, runs `body`, stops it. Returns nil (after recording why) when the
    /// emulator cannot run here.
    public static func run<T>(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T) throws -> T? {
        try PeerRig.run(
            "start-vicc-npa.sh", emulator: "nPA emulator",
            tools: [
                ("pcscd", "pcscd"), ("vicc", "vsmartcard-vpicc"), ("patch", "patch"), ("swig", "swig"),
                ("gcc", "gcc"), ("python3-config", "python3-dev"), ("dpkg-source", "dpkg-dev"),
            ],
            packages: [
                "vsmartcard-vpcd", "python3-virtualsmartcard", "python3-pyscard", "python3-pycryptodome", "libeac3",
                "libeac-dev",
            ],
            sourceLocation: sourceLocation, body)
    }
}
