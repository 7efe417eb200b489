import AccessControl
import CryptoPrimitives
import LDS
import MRZ
import Secrets
import SecureMessaging
import Synchronization
import Transport

/// A hostile chip: the fuzzer's bytes are the chip's answers, one per command, to whatever the
/// reader sends while it opens the chip or reads files. What it reaches is the reader's handling
/// of chip answers: status words, short and over-long data, Le ladders, 6282/6B00/6Cxx, TLV
/// headers declaring any length, DO'53' in READ BINARY B1, and the BAC answers.
///
/// The first byte picks the setting:
/// - bit 0: the link supports extended length;
/// - bit 1: files are read over secure messaging: the chip side protects each answer under the
///   session keys the reader holds (so the answer's content reaches `FileReader`), unless the
///   answer's own first byte asks for it to be sent unprotected (bare status words, forgeries);
/// - bit 2: AES instead of 3DES for that session;
/// - bit 3: run the access procedure instead (SELECT MF, EF.CardAccess, SELECT application,
///   BAC with a specimen MRZ), which a chip answering at random can never pass.
///
/// Then each answer is one control byte (bit 0: send unprotected), a length (one byte; 255 means
/// two more bytes follow), that many data bytes, and the status word.
let chipTarget = FuzzTarget(name: "chip") { input in
    guard let setting = input.first else { return }
    let aes = setting & 4 != 0
    let protected = setting & 2 != 0
    guard
        let chip = try? HostileChip(
            answers: Array(input.dropFirst()), extendedLength: setting & 1 != 0,
            session: protected ? knownSession(aes: aes) : nil)
    else { return }
    if setting & 8 != 0 {
        _ = try? ChipAccess.open(
            chip, accessKey: specimenKey,
            random: RandomSource { count in SecretBytes([UInt8](repeating: 0x5A, count: count)) })
        return
    }
    let channel: any CommandChannel
    if protected, let session = try? knownSession(aes: aes) {
        channel = SecureChannel(base: chip, session: session)
    } else {
        channel = PlainChannel(chip)
    }
    var reader = FileReader(channel: channel)
    for kind in [LDSFileKind.com, .dg1, .dg2, .dg11, .dg14, .sod] {
        switch reader.read(kind) {
        case .read(let bytes):
            fuzzCheck(bytes.count <= kind.maximumSize, "\(kind) read \(bytes.count) bytes, above its cap")
            if kind != .sod { _ = LDSFileParser.parseLeniently(bytes, as: kind).json.serialized() }
        case .failed(let error) where error.channelError != nil:
            fuzzCheck(error.bytesRead.count <= kind.maximumSize, "\(kind) kept \(error.bytesRead.count) bytes")
            return
        case .absent, .denied, .failed: continue
        }
    }
}

/// The MRZ of the ICAO 9303-11 Appendix D example.
private let specimenKey: AccessPassword = {
    guard let key = try? AccessPassword.mrz(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")
    else { fatalError("the specimen MRZ is valid") }
    return key
}()

/// A chip whose answers are the fuzzer's bytes; once they run out, the card is gone.
private final class HostileChip: APDUTransport {
    let supportsExtendedLength: Bool
    private let state: Mutex<State>

    private struct State {
        var answers: ArraySlice<UInt8>
        /// The chip side of secure messaging, advanced by every protected command.
        var session: SecureMessagingSession?
    }

    init(answers: [UInt8], extendedLength: Bool, session: SecureMessagingSession?) {
        supportsExtendedLength = extendedLength
        state = Mutex(State(answers: answers[...], session: session))
    }

    func transmit(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU {
        try state.withLock { state throws(TransportError) -> ResponseAPDU in
            guard let control = state.answers.popFirst(), var length = state.answers.popFirst().map(Int.init)
            else { throw .TagLost }
            if length == 0xFF {
                guard let high = state.answers.popFirst(), let low = state.answers.popFirst() else { throw .TagLost }
                length = Int(high) << 8 | Int(low)
            }
            let data = Array(state.answers.prefix(length))
            state.answers = state.answers.dropFirst(length)
            guard let sw1 = state.answers.popFirst(), let sw2 = state.answers.popFirst() else { throw .TagLost }
            let answer = ResponseAPDU(data: data, statusWord: StatusWord(sw1: sw1, sw2: sw2))
            guard var session = state.session else { return answer }
            defer { state.session = session }
            do throws(SecureMessagingError) {
                // The chip verifies every protected command (its counter moves) before answering.
                let plain = try session.unwrapCommand(command)
                return control & 1 == 0 ? try session.wrapResponse(answer, to: plain) : answer
            } catch {
                throw .Unexpected(detail: "the chip side refused the command: \(error)")
            }
        }
    }
}
