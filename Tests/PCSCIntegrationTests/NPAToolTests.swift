import ASN1
import Foundation
import TestSupport
import Testing

/// Our chip side of PACE against a terminal we did not write: OpenSC's npa-tool (OpenPACE's
/// terminal side) runs PACE with the CAN and with the MRZ against the chip simulator behind a
/// pcscd of its own (`Tools/simulator.sh`), then sends SELECT and READ BINARY of DG1 through its
/// own secure messaging and must get the specimen's DG1.
///
/// What npa-tool (OpenSC 0.23, OpenPACE 1.1.2) can run, and so what is covered: Generic Mapping
/// with every cipher, on every standardized curve (IDs 8–18) and on the 1024-bit MODP group
/// (ID 0). Not covered, for npa-tool's reasons: Integrated Mapping (OpenPACE accepts it only in
/// TR-03110 v2.01 mode, which npa-tool's `--tr-03110v201` sets after parsing EF.CardAccess, too
/// late), Chip Authentication Mapping (not in OpenPACE 1.1.2), and the 2048-bit groups (IDs 1, 2:
/// the mapping data makes GENERAL AUTHENTICATE longer than a short APDU, and OpenSC's default
/// card driver sends only short ones).
@Suite(.serialized) struct NPAToolTests {
    /// Each curve once and each cipher several times.
    static let offers = [
        "ECDH-GM-3DES:8", "ECDH-GM-AES-128:9", "ECDH-GM-AES-192:10", "ECDH-GM-AES-256:11", "ECDH-GM-3DES:12",
        "ECDH-GM-AES-128:13", "ECDH-GM-AES-192:14", "ECDH-GM-AES-256:15", "ECDH-GM-3DES:16", "ECDH-GM-AES-128:17",
        "ECDH-GM-AES-256:18", "DH-GM-3DES:0", "DH-GM-AES-128:0", "DH-GM-AES-192:0", "DH-GM-AES-256:0",
    ]
    static let can = "123456"
    /// The simulator's specimen's MRZ (ICAO's Anna Maria Eriksson, TD3).
    static let specimenMRZ =
        "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<L898902C<3UTO6908061F9406236ZE184226B<<<<<14"
    /// The same document number, birth and expiry with their check digits where OpenPACE takes
    /// them: it reads `--mrz` as a TD1 (document number at 5, birth at 30, expiry at 38).
    static let mrzForOpenPACE = "I<UTOL898902C<3<<<<<<<<<<<<<<<6908061F9406236UTO<<<<<<<<<<<2"
    /// An Authentication Terminal's CHAT: without one, this npa-tool fails before MSE:Set AT
    /// ("asn1 encoding routines::illegal zero content").
    static let chat = "7F4C0E060904007F000703010203530103"

    /// DG1 as npa-tool printed its decrypted answer to READ BINARY, or nil.
    static func decryptedDG1(in output: String) -> [UInt8]? {
        guard let start = output.range(of: "Decrypted R-APDU response data (93 bytes):\n") else { return nil }
        let lines = output[start.upperBound...].split(separator: "\n").prefix { !$0.hasPrefix("=") }
        // bin_print's lines: up to three groups of 16 bytes in hex, separated by spaces.
        return Hex.decode(lines.joined(separator: " "))
    }

    @Test(arguments: offers) func npaToolOpensTheSimulatedChip(_ offer: String) throws {
        guard getuid() == 0 else {
            Prerequisites.unavailable("root (the simulator's pcscd runs in its own namespaces)")
            return
        }
        guard let emrtd = Prerequisites.builtExecutable("emrtd"),
            Prerequisites.tool("pcscd", package: "pcscd") != nil, Prerequisites.package("vsmartcard-vpcd"),
            let npaTool = try NPATool.path()
        else { return }
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("emrtd-npa-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: state) }
        let simulator = Prerequisites.repositoryRoot.appendingPathComponent("Tools/simulator.sh").path
        let simulatorEnvironment = ["EMRTD_SIMULATOR_STATE": state.path, "EMRTD_BIN": emrtd]
        let started = try Subprocess.run(
            simulator, ["start", "--pace", offer, "--pace-only", "--chip-can", Self.can],
            environment: simulatorEnvironment)
        defer { _ = try? Subprocess.run(simulator, ["stop"], environment: simulatorEnvironment) }
        try #require(started.status == 0, "simulator.sh start: \(started.combinedOutput)")
        let pcscd = ["PCSCLITE_CSOCK_NAME": state.appendingPathComponent("run/pcscd.comm").path]
        let terminal = ["-r", "0", "--chat", Self.chat]

        let apdus = state.appendingPathComponent("apdus")
        // SELECT the eMRTD application, SELECT EF.DG1, READ BINARY; an empty line ends the list.
        try Data("00A4040C07A0000002471001\n00A4020C020101\n00B0000000\n\n".utf8).write(to: apdus)
        let withCAN = try Subprocess.run(
            npaTool, terminal + ["--can=\(Self.can)", "--translate", apdus.path], environment: pcscd)
        #expect(withCAN.status == 0, "\(offer), CAN: \(withCAN.combinedOutput)")
        #expect(withCAN.output.contains("Established PACE channel with CAN."), "\(offer): \(withCAN.combinedOutput)")
        #expect(
            withCAN.output.components(separatedBy: "Decrypted R-APDU sw1=90 sw2=00").count == 4,
            "\(offer): \(withCAN.output)")
        #expect(
            Self.decryptedDG1(in: withCAN.output) == [0x61, 0x5B, 0x5F, 0x1F, 0x58] + Array(Self.specimenMRZ.utf8),
            "\(offer): \(withCAN.output)")

        let withMRZ = try Subprocess.run(npaTool, terminal + ["--mrz=\(Self.mrzForOpenPACE)"], environment: pcscd)
        #expect(withMRZ.status == 0, "\(offer), MRZ: \(withMRZ.combinedOutput)")
        #expect(withMRZ.output.contains("Established PACE channel with MRZ."), "\(offer): \(withMRZ.combinedOutput)")

        // A wrong CAN: the chip refuses npa-tool's token (6300), and npa-tool says the card
        // command failed.
        let wrong = try Subprocess.run(npaTool, terminal + ["--can=123457"], environment: pcscd)
        #expect(wrong.status != 0)
        #expect(!wrong.output.contains("Established PACE channel"))
        #expect(wrong.combinedOutput.contains("Card command failed"), "\(offer): \(wrong.combinedOutput)")
    }
}
