import CryptoPrimitives
import MRZ
import Secrets
import SecureMessaging
import Synchronization
import TestSupport
import Transport

/// ICAO 9303-11 Appendix D (D.2–D.4), as published; the same values as
/// `../shared/vectors/icao9303-11.json` `bac` and `sm_examples`.
enum AppendixD {
    static let documentNumber = "L898902C<"
    static let dateOfBirth = "690806"
    static let dateOfExpiry = "940623"
    static let mrzInformation = "L898902C<369080619406236"
    static let kEnc = hex("AB94FDECF2674FDFB9B391F85D7F76F2")
    static let kMac = hex("7962D9ECE03D1ACD4C76089DCE131543")
    static let getChallenge = "0084000008"
    static let getChallengeResponse = "4608F919887022129000"
    static let rndIFD = hex("781723860C06C226")
    static let kIFD = hex("0B795240CB7049B01C19B33E32804F0B")
    static let externalAuthenticate =
        "008200002872C29C2371CC9BDB65B779B8E8D37B29ECC154AA56A8799FAE2F498F76ED92F25F1448EEA8AD90A728"
    static let externalAuthenticateResponse =
        "46B9342A41396CD7386BF5803104D7CEDC122B9132139BAF2EEDC94EE178534F2F2D235D074D74499000"
    static let ksEnc = hex("979EC13B1CBFE9DCD01AB0FED307EAE5")
    static let ksMac = hex("F1CB1F1FB5ADF208806B89DC579DC1F8")
    static let ssc = hex("887022120C06C226")
    /// D.4: SELECT EF.COM, READ BINARY 4 bytes, READ BINARY 18 bytes from offset 4.
    static let secureMessagingTranscript: [(command: String, response: String)] = [
        ("0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800", "990290008E08FA855A5D4C50A8ED9000"),
        ("0CB000000D9701048E08ED6705417E96BA5500", "8709019FF0EC34F9922651990290008E08AD55CC17140B2DED9000"),
        (
            "0CB000040D9701128E082EA28A70F3C7B53500",
            "871901FB9235F4E4037F2327DCC8964F1F9B8C30F42C8E2FFF224A990290008E08C8B2787EAEA07D749000"
        ),
    ]
    static let efCom = hex("60145F0104303130365F36063034303030305C026175")

    static func accessKey() throws -> AccessPassword {
        try AccessPassword.mrz(documentNumber: documentNumber, dateOfBirth: dateOfBirth, dateOfExpiry: dateOfExpiry)
    }

    /// RND.IFD then K.IFD, as BAC asks for them.
    /// RND.IFD then K.IFD, as the example draws them.
    static var fixedRandom: RandomSource { .replaying(rndIFD + kIFD) }

    static func session() throws -> SecureMessagingSession {
        try SecureMessagingSession(
            encryptionKey: SymmetricKey(.tripleDES, bytes: ksEnc), macKey: SymmetricKey(.tripleDES, bytes: ksMac),
            sendSequenceCounter: ssc)
    }
}

/// The chip's half of a secure messaging session, for scripted exchanges that have no published
/// transcript: each step expects one plain command (after the chip unwraps it) and answers one
/// plain response, protected as the script says.
final class ChipSide: Sendable {
    enum Protection: Sendable {
        /// DO'87', DO'99', DO'8E'.
        case full
        /// No DO'99' (the ePass emulator).
        case withoutProcessingStatus
        /// The status word alone, unprotected (errors on real chips and the ePass).
        case bare
        /// DO'87' without DO'8E' (the ePass's 6282); the chip's SSC moved for the command only.
        case withoutMAC
        /// A response whose MAC has one bit flipped.
        case corruptMAC
    }

    private let session: Mutex<SecureMessagingSession>

    init(_ session: SecureMessagingSession) { self.session = Mutex(session) }

    func step(_ expected: CommandAPDU, _ answer: ResponseAPDU, _ protection: Protection = .full)
        -> ScriptedTransport.Step
    {
        .respond("SM \(expected)") { [self] protected throws(TransportError) in
            try self.session.withLock { chip throws(TransportError) -> ResponseAPDU in
                let received: CommandAPDU
                do throws(SecureMessagingError) {
                    received = try chip.unwrapCommand(protected)
                } catch {
                    throw .Unexpected(detail: "chip could not unwrap: \(error)")
                }
                guard received.ins == expected.ins, received.p1 == expected.p1, received.p2 == expected.p2,
                    received.data == expected.data, received.expectedLength == expected.expectedLength
                else { throw .Unexpected(detail: "chip expected \(expected), got \(received)") }
                do throws(SecureMessagingError) {
                    switch protection {
                    case .bare:
                        return ResponseAPDU(statusWord: answer.statusWord)
                    case .withoutMAC:
                        var copy = chip
                        let wrapped = try copy.wrapResponse(answer, to: received, includeProcessingStatus: false)
                        return ResponseAPDU(data: Array(wrapped.data.dropLast(10)), statusWord: answer.statusWord)
                    case .full, .corruptMAC:
                        var wrapped = try chip.wrapResponse(answer, to: received)
                        if case .corruptMAC = protection { wrapped.data[wrapped.data.count - 1] ^= 0x01 }
                        return wrapped
                    case .withoutProcessingStatus:
                        return try chip.wrapResponse(answer, to: received, includeProcessingStatus: false)
                    }
                } catch {
                    throw .Unexpected(detail: "chip could not wrap: \(error)")
                }
            }
        }
    }
}

func select(_ identifier: UInt16) -> CommandAPDU {
    CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [UInt8(identifier >> 8), UInt8(identifier & 0xFF)])
}

func readBinary(_ offset: Int, _ length: Int) -> CommandAPDU {
    CommandAPDU(ins: 0xB0, p1: UInt8(offset >> 8), p2: UInt8(offset & 0xFF), expectedLength: length)
}

func ok(_ data: [UInt8] = []) -> ResponseAPDU { ResponseAPDU(data: data, statusWord: .success) }
func status(_ word: UInt16, _ data: [UInt8] = []) -> ResponseAPDU {
    ResponseAPDU(data: data, statusWord: StatusWord(word))
}

/// A file with the outer `tag` and `count` value bytes of a recognizable pattern.
func tlvFile(tag: UInt8, valueLength count: Int) -> [UInt8] {
    let length: [UInt8] =
        count < 0x80
        ? [UInt8(count)]
        : count < 0x100
            ? [0x81, UInt8(count)]
            : count < 0x10000
                ? [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
                : [0x83, UInt8(count >> 16), UInt8((count >> 8) & 0xFF), UInt8(count & 0xFF)]
    return [tag] + length + (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
}

/// Plain scripted exchanges from APDU values.
func exchange(_ command: CommandAPDU, _ response: ResponseAPDU) -> ScriptedTransport.Step {
    // Scripts are built from valid commands: encoding cannot fail here.
    .exchange((try? command.encoded()) ?? [], response.encoded)
}

/// SELECT MF and EF.CardAccess read whole (header, then the rest), as the chip access procedure
/// starts.
func readingCardAccess(_ cardAccess: [UInt8]) -> [ScriptedTransport.Step] {
    [
        .exchange(ChipAccessTests.selectMasterFile, "9000"),
        exchange(select(0x011C), ok()),
        exchange(readBinary(0, 4), ok(Array(cardAccess[0..<4]))),
        exchange(readBinary(4, cardAccess.count - 4), ok(Array(cardAccess[4...]))),
    ]
}

/// MSE:Set AT for id-PACE-`family`-`cipher` (the last two OID arcs), the MRZ and `parameterId`.
func setAuthenticationTemplate(family: UInt8, cipher: UInt8, parameterId: UInt8) -> CommandAPDU {
    let oid: [UInt8] = [0x04, 0x00, 0x7F, 0x00, 0x07, 0x02, 0x02, 0x04, family, cipher]
    return CommandAPDU(
        ins: 0x22, p1: 0xC1, p2: 0xA4, data: [0x80, 0x0A] + oid + [0x83, 0x01, 0x01, 0x84, 0x01, parameterId])
}
