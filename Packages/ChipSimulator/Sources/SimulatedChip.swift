import ASN1
import CryptoPrimitives
import Glibc
import ICAO
import Secrets
import Synchronization
import Transport

/// A software eMRTD chip. As a `CardTransport` the reader talks to it in-process; `VPCDBridge`
/// puts it behind a real pcscd.
///
/// It answers like a card: every problem is a status word, never a thrown error, except the
/// `tagLost` fault, which breaks the link as a card leaving the field does.
public final class SimulatedChip: CardTransport {

    public let configuration: ChipConfiguration
    private let bacKey: BasicAccessControlChip?
    /// Where nonces and key material come from: the system's secure random generator, or fixed
    /// bytes in tests that replay the 9303-11 worked examples.
    private let randomBytes: @Sendable (Int) -> [UInt8]?
    private let state = Mutex(State())

    /// What the chip remembers between commands; a reset (power cycle) starts it afresh.
    private struct State {
        var inApplication = false
        var currentFile: UInt16?
        var challenge: [UInt8]?
        var session: ChipSession?
        var accessGranted = false
        var secureCommands = 0
        var statistics = LinkStatistics()
    }

    public convenience init(configuration: ChipConfiguration) {
        self.init(configuration: configuration) {
            (try? RandomSource.system.bytes(count: $0))?.withUnsafeBytes { Array($0) }
        }
    }

    init(configuration: ChipConfiguration, randomBytes: @escaping @Sendable (Int) -> [UInt8]?) {
        self.configuration = configuration
        self.randomBytes = randomBytes
        let keyInput =
            configuration.accessKey
            ?? configuration.files[dataGroup: 1].flatMap(Self.machineReadableZone).flatMap {
                BACKeyInput(machineReadableZone: $0)
            }
        bacKey = keyInput.map(BasicAccessControlChip.init)
    }

    public convenience init(files: ChipFiles) {
        self.init(configuration: ChipConfiguration(files: files))
    }

    public var supportsExtendedLength: Bool { configuration.supportsExtendedLength }

    /// Exchanges, bytes and the time the link model charges for them so far.
    public var statistics: LinkStatistics { state.withLock { $0.statistics } }

    /// The Answer-to-Reset: T=0 and T=1, historical bytes announcing (or not) extended Lc/Le in
    /// the card capabilities (ISO 7816-4 §8.1.1.2.7), and the check byte.
    public var answerToReset: [UInt8] {
        let capabilities: UInt8 = configuration.supportsExtendedLength ? 0x40 : 0x00
        let historical: [UInt8] = [0x80, 0x73, 0x80, 0x21, capabilities]
        let body: [UInt8] = [0x80 | UInt8(historical.count), 0x80, 0x01] + historical
        return [0x3B] + body + [body.reduce(0, ^)]
    }

    /// A power cycle: the session, the access rights and the selection are gone.
    public func reset() {
        state.withLock { state in
            let statistics = state.statistics
            state = State()
            state.statistics = statistics
        }
    }

    public func transmit(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU {
        let commandLength = (try? command.encoded().count) ?? 0
        let (outcome, delay) = state.withLock { state in answer(command, state: &state) }
        let response = try outcome.get()
        let bytes = commandLength + response.data.count + 2
        var charged = Duration.zero
        if let link = configuration.link {
            charged = link.duration(bytes: bytes)
        }
        state.withLock { state in
            state.statistics.exchanges += 1
            state.statistics.bytes += bytes
            state.statistics.linkTime += charged
        }
        let wait = (configuration.link?.waits == true ? charged : .zero) + delay
        if wait > .zero { sleepBlocking(wait) }
        return response
    }

    // MARK: - Dispatch

    private func answer(_ command: CommandAPDU, state: inout State) -> (
        Result<ResponseAPDU, TransportError>, Duration
    ) {
        if command.needsExtendedLength && !configuration.supportsExtendedLength {
            return (.success(ResponseAPDU(statusWord: .wrongLength)), .zero)
        }
        guard command.cla & 0x0C == 0x0C else {
            if state.session != nil {
                // A plain command ends a secure-messaging session (ISO 7816-4 §10.2).
                endSession(&state)
            }
            var delay = Duration.zero
            let readFile = fileRead(by: command, state: state)
            for fault in configuration.faults where matches(trigger(of: fault), number: nil, readFile: readFile) {
                switch fault {
                case .tagLost: return (.failure(.tagLost), .zero)
                case .bareStatusWord(let status, _):
                    return (.success(ResponseAPDU(statusWord: StatusWord(status))), .zero)
                case .slowAnswer(let duration, _): delay += duration
                default: continue  // the others concern secure messaging
                }
            }
            return (.success(process(command, responseBudget: nil, state: &state)), delay)
        }
        return protectedAnswer(command, state: &state)
    }

    private func protectedAnswer(_ protected: CommandAPDU, state: inout State) -> (
        Result<ResponseAPDU, TransportError>, Duration
    ) {
        guard var session = state.session else {
            return (.success(ResponseAPDU(statusWord: .secureMessagingDataObjectsIncorrect)), .zero)
        }
        state.secureCommands += 1
        let number = state.secureCommands
        let command: CommandAPDU
        do throws(ChipSession.Rejection) {
            command = try session.unwrap(protected)
        } catch {
            endSession(&state)
            return (.success(ResponseAPDU(statusWord: error.status)), .zero)
        }
        let readFile = fileRead(by: command, state: state)
        var corruptMAC = false
        var delay = Duration.zero
        for fault in configuration.faults where matches(trigger(of: fault), number: number, readFile: readFile) {
            switch fault {
            case .tagLost:
                return (.failure(.tagLost), .zero)
            case .dropSession:
                endSession(&state)
                return (.success(ResponseAPDU(statusWord: .secureMessagingDataObjectsIncorrect)), .zero)
            case .bareStatusWord(let status, _):
                state.session = session
                return (.success(ResponseAPDU(statusWord: StatusWord(status))), .zero)
            case .wrongResponseMAC:
                corruptMAC = true
            case .slowAnswer(let duration, _):
                delay += duration
            case .wrongLengthAbove, .omitStatusWordObject:
                break
            }
        }
        let budget = protected.expectedLength.map {
            Self.plainBudget(forWireLength: $0, oddInstruction: command.ins & 1 == 1)
        }
        let plain = process(command, responseBudget: budget, state: &state)
        let wrapped = session.wrap(
            plain, oddInstruction: command.ins & 1 == 1,
            omitStatusWord: configuration.faults.contains(.omitStatusWordObject), corruptMAC: corruptMAC)
        if state.session != nil { state.session = session }
        return (.success(wrapped), delay)
    }

    private func trigger(of fault: ChipFault) -> FaultTrigger? {
        switch fault {
        case .wrongResponseMAC(let trigger), .bareStatusWord(_, let trigger), .dropSession(let trigger),
            .tagLost(let trigger), .slowAnswer(_, let trigger):
            trigger
        case .wrongLengthAbove, .omitStatusWordObject:
            nil
        }
    }

    /// Whether a fault strikes the command numbered `number` among those under secure messaging
    /// (nil for a plain command) that reads `readFile`.
    private func matches(_ trigger: FaultTrigger?, number: Int?, readFile: (file: UInt16, offset: Int)?) -> Bool {
        switch trigger {
        case .secureCommand(let wanted): wanted == number
        case .readOf(let file): readFile?.file == file
        case .readPastHeaderOf(let file): readFile?.file == file && (readFile?.offset ?? 0) > 0
        case .always: true
        case nil: false
        }
    }

    private func endSession(_ state: inout State) {
        state.session = nil
        state.accessGranted = false
        state.challenge = nil
    }

    /// The file a READ BINARY addresses (by SFI or the current file) and its offset, for faults.
    private func fileRead(by command: CommandAPDU, state: State) -> (file: UInt16, offset: Int)? {
        switch command.ins {
        case 0xB0 where command.p1 & 0x80 != 0:
            let file = files(of: state).keys.first { ChipFiles.shortIdentifier(of: $0) == command.p1 & 0x1F }
            return file.map { ($0, Int(command.p2)) }
        case 0xB0:
            return state.currentFile.map { ($0, Int(command.p1 & 0x7F) << 8 | Int(command.p2)) }
        case 0xB1:
            let offset = (try? ASN1Node.parse(command.data, rules: .ber))?.content.reduce(0) { $0 << 8 | Int($1) } ?? 0
            return state.currentFile.map { ($0, offset) }
        default:
            return nil
        }
    }

    private func process(_ command: CommandAPDU, responseBudget: Int?, state: inout State) -> ResponseAPDU {
        guard command.cla & 0xF3 == 0x00 else { return ResponseAPDU(statusWord: .classNotSupported) }
        switch command.ins {
        case 0xA4: return select(command, state: &state)
        case 0xB0, 0xB1: return readBinary(command, responseBudget: responseBudget, state: &state)
        case 0x84: return getChallenge(command, state: &state)
        case 0x82: return externalAuthenticate(command, state: &state)
        default: return ResponseAPDU(statusWord: .instructionNotSupported)
        }
    }

    // MARK: - Commands

    private func select(_ command: CommandAPDU, state: inout State) -> ResponseAPDU {
        switch command.p1 {
        case 0x04:
            guard command.data == ApplicationIdentifier.emrtd else { return ResponseAPDU(statusWord: .fileNotFound) }
            state.inApplication = true
            state.currentFile = nil
            return ResponseAPDU(statusWord: .success)
        case 0x00 where command.data.isEmpty || command.data == [0x3F, 0x00]:
            state.inApplication = false
            state.currentFile = nil
            return ResponseAPDU(statusWord: .success)
        case 0x00, 0x02:
            guard command.data.count == 2 else { return ResponseAPDU(statusWord: .incorrectData) }
            let identifier = UInt16(command.data[0]) << 8 | UInt16(command.data[1])
            guard files(of: state)[identifier] != nil else { return ResponseAPDU(statusWord: .fileNotFound) }
            state.currentFile = identifier
            return ResponseAPDU(statusWord: .success)
        default:
            return ResponseAPDU(statusWord: .incorrectParameters)
        }
    }

    private func files(of state: State) -> [UInt16: [UInt8]] {
        state.inApplication ? configuration.files.application : configuration.files.masterFile
    }

    private func readBinary(_ command: CommandAPDU, responseBudget: Int?, state: inout State) -> ResponseAPDU {
        var identifier = state.currentFile
        let offset: Int
        if command.ins == 0xB0 {
            if command.p1 & 0x80 != 0 {
                let shortIdentifier = command.p1 & 0x1F
                identifier = files(of: state).keys.first { ChipFiles.shortIdentifier(of: $0) == shortIdentifier }
                guard identifier != nil else { return ResponseAPDU(statusWord: .fileNotFound) }
                state.currentFile = identifier
                offset = Int(command.p2)
            } else {
                offset = Int(command.p1 & 0x7F) << 8 | Int(command.p2)
            }
        } else {
            // Odd INS: the offset is in DO'54' (up to four bytes); P1-P2 0000 keeps the current EF.
            guard let object = try? ASN1Node.parse(command.data, rules: .ber), object.tag == ASN1Tag(0x54),
                (1...4).contains(object.content.count)
            else {
                return ResponseAPDU(statusWord: .incorrectData)
            }
            offset = object.content.reduce(0) { $0 << 8 | Int($1) }
        }
        guard let identifier, let contents = files(of: state)[identifier] else {
            return ResponseAPDU(statusWord: .commandNotAllowed)
        }
        if state.inApplication {
            let locked = configuration.enforcesAccessControl && !state.accessGranted
            if locked || configuration.protectedFiles.contains(identifier) {
                return ResponseAPDU(statusWord: .securityStatusNotSatisfied)
            }
        }
        guard let requested = command.expectedLength else { return ResponseAPDU(statusWord: .wrongLength) }
        for case .wrongLengthAbove(let limit) in configuration.faults where requested > limit {
            return ResponseAPDU(statusWord: .wrongLength)
        }
        var count = requested
        if requested > configuration.maximumReadLength {
            switch configuration.oversizedRead {
            case .truncate:
                count = configuration.maximumReadLength
            case .wrongLength:
                return ResponseAPDU(statusWord: .wrongLength)
            case .exactLength:
                return ResponseAPDU(
                    statusWord: StatusWord(sw1: 0x6C, sw2: UInt8(configuration.maximumReadLength & 0xFF)))
            }
        }
        guard offset < contents.count else { return ResponseAPDU(statusWord: .wrongParameters) }
        let oddOverhead = command.ins == 0xB1 ? 4 : 0  // DO'53' tag and up to three length bytes
        if let responseBudget { count = min(count, max(responseBudget - oddOverhead, 1)) }
        let end = min(offset + count, contents.count)
        let data = Array(contents[offset..<end])
        let status: StatusWord =
            end - offset < requested && configuration.signalsEndOfFile ? .endOfFileReached : .success
        return ResponseAPDU(data: command.ins == 0xB1 ? DER.tlv(ASN1Tag(0x53), data) : data, statusWord: status)
    }

    private func getChallenge(_ command: CommandAPDU, state: inout State) -> ResponseAPDU {
        guard command.expectedLength == 8 else { return ResponseAPDU(statusWord: .wrongLength) }
        guard let challenge = randomBytes(8) else {
            return ResponseAPDU(statusWord: .noPreciseDiagnosis)
        }
        state.challenge = challenge
        return ResponseAPDU(data: challenge, statusWord: .success)
    }

    private func externalAuthenticate(_ command: CommandAPDU, state: inout State) -> ResponseAPDU {
        guard let bacKey else { return ResponseAPDU(statusWord: .referenceDataNotUsable) }
        guard let challenge = state.challenge else { return ResponseAPDU(statusWord: .conditionsNotSatisfied) }
        state.challenge = nil  // one attempt per challenge
        guard let keyMaterial = randomBytes(16),
            let result = bacKey.authenticate(command.data, challenge: challenge, chipKeyMaterial: keyMaterial)
        else {
            return ResponseAPDU(statusWord: .verificationFailed)
        }
        state.session = result.session
        state.secureCommands = 0
        state.accessGranted = true
        return ResponseAPDU(data: result.answer, statusWord: .success)
    }

    // MARK: - Helpers

    /// The most plain bytes a protected answer can carry within `wireLength` response bytes:
    /// the cryptogram (padded to 8) inside DO'87' (tag, up to three length bytes, indicator),
    /// plus DO'99' (4) and DO'8E' (10).
    static func plainBudget(forWireLength wireLength: Int, oddInstruction: Bool) -> Int {
        let overhead = 4 + 1 + (oddInstruction ? 0 : 1) + 4 + 10
        let cryptogram = (wireLength - overhead) / 8 * 8
        return max(cryptogram - 1, 0)
    }

    /// The MRZ text of a DG1 (tag 61 holding 5F1F), or nil.
    static func machineReadableZone(_ bytes: [UInt8]) -> String? {
        guard let (dataGroup, _) = try? ASN1Node.parsePrefix(bytes, rules: .ber), dataGroup.tag == ASN1Tag(0x61),
            let mrz = dataGroup.child(ASN1Tag(0x5F1F))
        else { return nil }
        return String(decoding: mrz.content, as: UTF8.self)
    }
}

/// What crossed the simulated link.
public struct LinkStatistics: Sendable, Hashable {
    public var exchanges = 0
    /// Command and response bytes on the wire.
    public var bytes = 0
    /// The time the link model charges for the exchanges (zero without a link model).
    public var linkTime = Duration.zero
}

/// Blocks the calling thread (the chip answers one command at a time on the caller's thread).
func sleepBlocking(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}
