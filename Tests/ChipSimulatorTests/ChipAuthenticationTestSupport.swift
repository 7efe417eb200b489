import ASN1
import Arithmetic
import CryptoPrimitives
import ICAO
import Secrets
import SecureMessaging
import Testing
import Transport

@testable import ChipSimulator

/// A minimal terminal for the chip-side protocol tests, written from 9303-11 apart from the
/// chip's handlers: it opens secure messaging with PACE (`PACETestTerminal`), then sends
/// protected commands, and derives Chip Authentication's session keys itself (KDF: SHA-1 of
/// K ‖ counter for 3DES and AES-128, SHA-256 for AES-192/256, 9303-11 §9.7.1, DES parity).
struct ProtectedTerminal {
    let chip: SimulatedChip
    var session: SecureMessagingSession

    /// A chip with the specimen-like EF.COM, PACE ECDH-GM-AES-128 on brainpoolP256r1 with the
    /// CAN, and these credentials otherwise; PACE is run at once.
    static func open(
        chipAuthenticationKeys: [ChipAuthenticationKey] = [], activeAuthenticationKey: ActiveAuthenticationKey? = nil,
        faults: [ChipFault] = []
    ) throws -> ProtectedTerminal {
        var files = ChipFiles()
        files.com = PACEWorkedExampleTests.efCom
        let offer = PACEOffer(
            PACEHandlerTests.paceProtocol(.genericMapping, .ecdh, .aes128), parameters: .brainpoolP256r1)!
        let credentials = Credentials(
            mrz: PACEHandlerTests.mrz, can: PACEHandlerTests.can, paceOffers: [offer],
            activeAuthenticationKey: activeAuthenticationKey, chipAuthenticationKeys: chipAuthenticationKeys)
        return try open(ChipConfiguration(files: files, credentials: credentials, faults: faults)).terminal
    }

    /// Runs PACE with the CAN and the chip's first offer on a chip with `configuration`.
    static func open(_ configuration: ChipConfiguration) throws -> (
        terminal: ProtectedTerminal, pace: PACETestTerminal.Outcome
    ) {
        let chip = SimulatedChip(configuration: configuration)
        let offer = try #require(configuration.credentials.paceOffers.first)
        let outcome = try PACEHandlerTests.terminal(offer.paceProtocol, offer.parameters, usingCAN: true).run(on: chip)
        return (ProtectedTerminal(chip: chip, session: outcome.session), outcome)
    }

    /// Sends `command` under the session and returns the unwrapped answer.
    mutating func send(_ command: CommandAPDU) throws -> ResponseAPDU {
        try session.unwrap(try chip.transmit(try session.wrap(command, extendedLengthAvailable: true)))
    }

    /// Selects the eMRTD application and reads EF.COM: the session works.
    mutating func readsCOM() throws -> Bool {
        guard
            try send(CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: ApplicationIdentifier.emrtd)).statusWord
                == .success,
            try send(CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01, 0x1E])).statusWord == .success
        else { return false }
        return try send(CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 256)).data == chip.configuration.files.com
    }

    /// The session keys of Chip Authentication from K, as 9303-11 §9.7.1 defines them.
    static func sessionKeys(_ sharedSecret: [UInt8], cipher: BlockCipher) throws -> SecureMessagingSession {
        func key(_ counter: UInt8) throws -> SymmetricKey {
            let input = sharedSecret + [0, 0, 0, counter]
            let digest =
                cipher == .tripleDES || cipher == .aes128
                ? HashAlgorithm.sha1.hash(input) : HashAlgorithm.sha256.hash(input)
            // 3DES keys get odd parity in each byte's low bit (9303-11 §9.7.1).
            let bytes = digest.prefix(cipher.keyLength).map { cipher == .tripleDES ? withDESParity($0) : $0 }
            return try SymmetricKey(cipher, bytes: bytes)
        }
        return try SecureMessagingSession(encryptionKey: key(1), macKey: key(2))
    }
}
