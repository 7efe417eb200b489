import Foundation
import JSON
import TestSupport
import Testing

/// `emrtd read --simulator` as a user opens the simulated chip: PACE by default with the MRZ or
/// the CAN, `--access` choosing the protocols, `--no-pace`/`--pace`/`--pace-only` shaping the chip.
@Suite struct AccessCLITests {
    static let mrz = ["--mrz", "L898902C", "690806", "940623"]

    static func read(_ arguments: [String]) throws -> (Subprocess.Result, JSONValue?)? {
        guard let emrtd = Prerequisites.builtExecutable("emrtd") else { return nil }
        let result = try Subprocess.run(emrtd, ["read", "--simulator", "--no-render", "--json"] + arguments)
        return (result, result.status == 0 ? try JSONValue.parse(result.output) : nil)
    }

    @Test func theDefaultChipOpensWithPACEWithTheMRZAndWithTheCAN() throws {
        for key in [Self.mrz, ["--can", "123456"]] {
            guard let (result, document) = try Self.read(key) else { return }
            #expect(result.status == 0, "\(result.combinedOutput)")
            #expect(document?["accessControlProtocolUsed"] == "pace")
            #expect(document?["pace"]?["protocolName"] == "id-PACE-ECDH-CAM-AES-CBC-CMAC-128")
            #expect(document?["pace"]?["parameterName"] == "brainpoolP256r1")
            #expect(document?["pace"]?["password"] == (key == Self.mrz ? "mrz" : "can"))
            #expect(document?["authenticationStatus"]?["data"]?["status"] == "authenticated")
        }
    }

    /// The chip options write the specimen's DG14 and DG15 for the keys they give, or none.
    @Test func chipKeyOptionsShapeTheSpecimen() throws {
        guard
            let (given, document) = try Self.read(
                Self.mrz + [
                    "--chip-authentication", "ECDH-AES-128:13", "--chip-authentication", "DH-3DES:0",
                    "--active-authentication", "ecdsa:secp256r1:sha384:der", "--explicit-domain-parameters",
                    "--chip-fault", "aa-other-challenge",
                ])
        else { return }
        #expect(given.status == 0, "\(given.combinedOutput)")
        #expect(
            document?["ldsMasterFile"]?["lds1EmrtdApplication"]?["dg14"]?["bytes"] != .null
                && document?["ldsMasterFile"]?["lds1EmrtdApplication"]?["dg15"]?["bytes"] != .null)
        #expect(document?["authenticationStatus"]?["data"]?["status"] == "authenticated")
        guard
            let (none, bare) = try Self.read(
                Self.mrz + ["--no-chip-authentication", "--no-active-authentication", "--pace", "ECDH-GM-AES-128"])
        else { return }
        #expect(none.status == 0, "\(none.combinedOutput)")
        #expect(
            bare?["ldsMasterFile"]?["lds1EmrtdApplication"]?["dg14"]?["bytes"] ?? .null == .null
                && bare?["ldsMasterFile"]?["lds1EmrtdApplication"]?["dg15"]?["bytes"] ?? .null == .null)
        for wrong in [
            ["--chip-fault", "nonsense"], ["--chip-authentication", "ECDH-AES-999"],
            ["--active-authentication", "rsa:512"], ["--chip-authentication", "DH-3DES:13"],
        ] {
            guard let (refused, _) = try Self.read(Self.mrz + wrong) else { return }
            #expect(refused.status == 2, "\(wrong): \(refused.combinedOutput)")
        }
    }

    @Test func accessChoosesTheProtocols() throws {
        guard let (bac, bacDocument) = try Self.read(Self.mrz + ["--access", "bac"]) else { return }
        #expect(bac.status == 0 && bacDocument?["accessControlProtocolUsed"] == "bac")
        #expect(bacDocument?["pace"] == .null)
        // A BAC-only chip: auto falls back to BAC, pace refuses, a CAN cannot open it.
        guard let (auto, autoDocument) = try Self.read(Self.mrz + ["--no-pace"]) else { return }
        #expect(auto.status == 0 && autoDocument?["accessControlProtocolUsed"] == "bac")
        guard let (paceOnly, _) = try Self.read(Self.mrz + ["--no-pace", "--access", "pace"]) else { return }
        #expect(paceOnly.status == 1 && paceOnly.combinedOutput.contains("BAC is not allowed"))
        guard let (can, _) = try Self.read(["--can", "123456", "--no-pace"]) else { return }
        #expect(can.status == 1 && can.combinedOutput.contains("the document has no PACE"))
        #expect(!can.combinedOutput.contains("access control failed: access control failed"))
        guard let (usage, _) = try Self.read(["--can", "123456", "--access", "bac"]) else { return }
        #expect(usage.status == 2)
    }

    @Test func aWrongCANIsRefusedByTheChipNamingPACE() throws {
        guard let (result, _) = try Self.read(["--can", "123457"]) else { return }
        #expect(result.status == 1)
        #expect(
            result.combinedOutput.contains("\"reason\": \"PACE failed: the chip refused the authentication token (6300")
        )
        #expect(result.combinedOutput.contains("6300"))
    }

    @Test func everyMappingOfTheSimulatedChipOpens() throws {
        for offer in ["ECDH-IM-AES-256:16", "DH-GM-3DES:0", "ECDH-CAM-AES-192:secp384r1"] {
            guard let (result, document) = try Self.read(Self.mrz + ["--pace", offer, "--pace-only"]) else { return }
            #expect(result.status == 0, "\(offer): \(result.combinedOutput)")
            #expect(document?["accessControlProtocolUsed"] == "pace", "\(offer)")
        }
    }
}
