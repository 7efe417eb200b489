import AccessControl
import ChipSimulator
import Emrtd
import Foundation
import MRZ
import SecureMessaging
import Synchronization
import Testing
import Transport

/// The debug log of a whole read against the simulator: under secure messaging each plain command
/// and answer beside its protected form, and never a secret: no MRZ, no CAN, no session key.
@Suite struct DebugLogTests {
    /// The read's chip access with every secure channel kept, so the test knows the session keys
    /// the log must not hold (the access protocol's, and Chip Authentication's after re-keying).
    final class ChannelKeeping: ChipAccessProcedure {
        let base = StandardChipAccess()
        let channels = Mutex<[SecureChannel]>([])
        let sessions = Mutex<[SecureMessagingSession]>([])

        func open(
            _ transport: any APDUTransport, accessKey: AccessPassword, observer: (any PlainAPDUObserver)?,
            log: @escaping @Sendable (String) -> Void
        ) throws(ReadError) -> OpenedChip {
            let opened = try base.open(transport, accessKey: accessKey, observer: observer, log: log)
            if let channel = opened.secureChannel {
                channels.withLock { $0.append(channel) }
                sessions.withLock { $0.append(channel.currentSession) }
            }
            return opened
        }

        /// Every session key used, as the log would spell it (uppercase hex, bytes spaced).
        var keysAsLogged: [String] {
            let all = sessions.withLock { $0 } + channels.withLock { $0.map(\.currentSession) }
            return all.flatMap { [$0.encryptionKey, $0.macKey] }.map { key in
                key.secret.withUnsafeBytes { $0.map { String(format: "%02X", $0) }.joined(separator: " ") }
            }
        }
    }

    static func log(of credentials: Credentials, accessKey: AccessKey) throws -> (String, [String]) {
        let specimen = try Specimen.generate(credentials: credentials)
        let access = ChannelKeeping()
        let reader = try EmrtdReader(
            config: ReaderConfig(
                useBuiltInAuthorityCertificates: false,
                authorityCertificates: [Data(specimen.countrySigningCertificate)],
                debug: true, renderImages: false),
            chipAccess: access)
        let chip = SimulatedChip(
            configuration: ChipConfiguration(files: specimen.files, credentials: specimen.credentials))
        let document = try reader.read(transport: chip, accessKey: accessKey)
        let messages = document.debugInfo.events.map(\.message)
        return (messages.joined(separator: "\n"), access.keysAsLogged)
    }

    static func hex(_ text: String) -> String { text.utf8.map { String(format: "%02X", $0) }.joined(separator: " ") }

    @Test(arguments: ["pace-can", "bac-chip-authentication"])
    func plainBesideProtectedAndNoSecret(_ setup: String) throws {
        let can = "123456"
        var credentials = Credentials(can: CardAccessNumber(can))
        let accessKey: AccessKey
        if setup == "pace-can" {
            try credentials.offerPACE([try PACEOffer(named: "ECDH-GM-AES-128:13")])
            accessKey = .can(value: can)
        } else {
            credentials.chipAuthenticationKeys = [try ChipAuthenticationKey.generate(named: "ECDH-AES-128:13")]
            accessKey = OrchestrationTests.accessKey
        }
        let (log, keys) = try Self.log(of: credentials, accessKey: accessKey)
        // A READ BINARY of DG1 by its short identifier, plain then protected, then its plain answer.
        let plain = try #require(log.range(of: "plain > 00 B0 81 00"), "\(log)")
        let rest = log[plain.upperBound...]
        #expect(rest.hasPrefix(" Le=") && rest.contains("READ BINARY EF.DG1"))
        let protected = try #require(rest.range(of: "> 0C B0 81 00"))
        #expect(rest[protected.upperBound...].contains("READ BINARY (SM)"))
        #expect(rest[protected.upperBound...].contains(/\nplain < <\d+ bytes redacted> 9000/))
        #expect(
            log.contains("plain > 00 A4 04 0C Lc=7 A0 00 00 02 47 10 01  SELECT eMRTD application")
                == (setup == "pace-can"))
        #expect(setup == "pace-can" || log.contains("chip authentication: the chip answered under the new keys"))
        // No secret, in clear or in hex: the MRZ's document number and dates, the CAN, the keys.
        #expect(keys.count >= 4)
        for secret in ["L898902C", "690806", "940623", can] + ["L898902C", "690806", can].map(Self.hex) + keys {
            #expect(!log.contains(secret), "the log holds \(secret)")
        }
    }
}
