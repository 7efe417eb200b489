import ASN1
import AccessControl
import Foundation
import JSON
import MRZ
import PCSC
import Synchronization
import TestSupport
import Testing
import Transport

/// Our PACE terminal against a chip side we did not write: vsmartcard's nPA emulator, whose PACE
/// is OpenPACE's (ECDH Generic Mapping, AES-128, brainpoolP256r1), behind the machine's pcscd.
///
/// The nPA is a German eID card, not an eMRTD: PACE is established, then SELECT of the eMRTD
/// application, the first command under the new secure messaging, answers 6A82. That answer
/// arriving with a MAC our session verified is the proof that both sides derived the same keys;
/// a wrong CAN is refused by the chip at mutual authentication (6300).
@Suite(.serialized) struct NPAPACETests {
    static let noEMRTDApplication =
        "emrtd read: access control failed: PACE failed: the chip has no eMRTD application (SELECT answered 6A82 (file not found))"

    /// The log lines of PACE's steps that only a chip holding the same password gets to.
    static let chipTokenVerified = "PACE: step 4, the chip's authentication token verified"

    @Test func emrtdReadEstablishesPACEWithTheCANAndTheMRZThenFindsNoEMRTDApplication() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd") else { return }
        try NPAEmulator.run {
            let reader = ["read", "--reader", NPAEmulator.readerName]
            let mrz = ["--mrz", NPAEmulator.documentNumber, NPAEmulator.dateOfBirth, NPAEmulator.dateOfExpiry]
            for (password, key) in [("can", ["--can", NPAEmulator.can]), ("mrz", mrz)] {
                let read = try Subprocess.run(emrtd, reader + key)
                #expect(read.status == 1, "\(password): \(read.combinedOutput)")
                #expect(read.output.isEmpty)
                #expect(read.errorOutput == Self.noEMRTDApplication + "\n", "\(password)")

                let debug = try Subprocess.run(emrtd, reader + key + ["--debug"])
                #expect(debug.status == 1, "\(password): \(debug.combinedOutput)")
                let lines = debug.errorOutput.split(separator: "\n").map { String($0) }
                #expect(lines.first == Self.noEMRTDApplication)
                let log = debug.errorOutput
                #expect(
                    log.contains(
                        "PACE offers to try, in order: id-PACE-ECDH-GM-AES-CBC-CMAC-128, parameters 13 (brainpoolP256r1)"
                    ))
                #expect(
                    log.contains(
                        "PACE: MSE:Set AT accepted (id-PACE-ECDH-GM-AES-CBC-CMAC-128, parameters 13 (brainpoolP256r1), password \(password))"
                    ), "\(log)")
                #expect(log.contains("PACE: step 3, keys agreed"))
                #expect(log.contains(Self.chipTokenVerified), "\(log)")
                // The SELECT went out under secure messaging (CLA 0C) and its 6A82 came back
                // protected: DO'99' holding the status word, then DO'8E', the MAC.
                #expect(log.contains("> 0C A4 04 0C Lc="))
                #expect(log.contains("< 99 02 6A 82 8E 08 "))
                // No BAC after PACE failed late, and the CAN itself never crossed the link.
                #expect(!log.contains("> 00 84 00 00"))
                #expect(!log.contains(Hex.encode(Array(NPAEmulator.can.utf8), separator: " ")))
            }

            let json = try Subprocess.run(emrtd, reader + ["--can", NPAEmulator.can, "--json"])
            #expect(json.status == 1)
            let error = try JSONValue.parse(json.output)
            #expect(error["code"] == "access_control" && error["type"] == "accessControl")
            #expect(
                error["reason"]
                    == "PACE failed: the chip has no eMRTD application (SELECT answered 6A82 (file not found))")
        }
    }

    @Test func aWrongCANIsRefusedByTheChipAtMutualAuthentication() throws {
        guard let emrtd = Prerequisites.builtExecutable("emrtd") else { return }
        try NPAEmulator.run {
            let read = try Subprocess.run(
                emrtd, ["read", "--reader", NPAEmulator.readerName, "--can", "222223", "--debug"])
            #expect(read.status == 1, "\(read.combinedOutput)")
            let lines = read.errorOutput.split(separator: "\n").map { String($0) }
            #expect(
                lines.first
                    == "emrtd read: access control failed: PACE failed: the chip refused the authentication token (6300 (verification failed)): check the CAN"
            )
            #expect(read.errorOutput.contains("PACE: step 3, keys agreed"))
            #expect(!read.errorOutput.contains(Self.chipTokenVerified))
            // The right CAN still opens it afterwards: the refusal left the chip usable.
            let right = try Subprocess.run(
                emrtd, ["read", "--reader", NPAEmulator.readerName, "--can", NPAEmulator.can])
            #expect(right.errorOutput == Self.noEMRTDApplication + "\n", "\(right.combinedOutput)")
        }
    }

    /// The same through the library: `ChipAccess.open` over `PCSCTransport`.
    @Test func chipAccessEstablishesPACEAndReportsTheMissingApplication() throws {
        try NPAEmulator.run {
            let context = try PCSCContext()
            let link = LoggingTransport(try context.connect(reader: NPAEmulator.readerName))
            let steps = Mutex<[String]>([])
            let missing = #expect(throws: AccessControlError.self) {
                try ChipAccess.open(
                    link, accessKey: try AccessPassword.can(value: NPAEmulator.can),
                    log: { line in steps.withLock { $0.append(line) } })
            }
            #expect(missing?.code == .notSupported)
            #expect(missing?.accessProtocol == .pace)
            #expect(missing?.statusWord == .fileNotFound)
            #expect(steps.withLock { $0.contains(Self.chipTokenVerified) })
            let last = link.log.entries.last
            #expect(last?.header == [0x0C, 0xA4, 0x04, 0x0C])
            guard case .response(.clear(let protected), let statusWord)? = last?.outcome else {
                Issue.record("the SELECT got no answer: \(String(describing: last))")
                return
            }
            #expect(statusWord == .fileNotFound)
            #expect(protected.starts(with: [0x99, 0x02, 0x6A, 0x82, 0x8E, 0x08]) && protected.count == 14)

            let wrong = #expect(throws: AccessControlError.self) {
                try ChipAccess.open(link, accessKey: try AccessPassword.can(value: "222223"))
            }
            #expect(wrong?.code == .accessDenied)
            #expect(wrong?.accessProtocol == .pace)
            #expect(wrong?.statusWord == .verificationFailed)

            // With the MRZ, a failure after mutual authentication ends the procedure: no BAC.
            let before = link.log.count
            let mrz = #expect(throws: AccessControlError.self) {
                try ChipAccess.open(
                    link,
                    accessKey: try AccessPassword.mrz(
                        documentNumber: NPAEmulator.documentNumber, dateOfBirth: NPAEmulator.dateOfBirth,
                        dateOfExpiry: NPAEmulator.dateOfExpiry))
            }
            #expect(mrz?.code == .notSupported)
            #expect(mrz?.accessProtocol == .pace)
            #expect(link.log.entries.dropFirst(before).allSatisfy { $0.header[1] != 0x84 && $0.header[1] != 0x82 })
        }
    }
}
