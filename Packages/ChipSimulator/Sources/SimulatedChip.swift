import ASN1
import CryptoPrimitives
import ICAO
import Secrets
import Synchronization
import Transport

/// A software eMRTD chip. As a `APDUTransport` the reader talks to it in-process; `VPCDBridge`
/// puts it behind a real pcscd.
///
/// The chip is layered as a card's operating system is: secure messaging (`ChipSession`) comes
/// off a protected command, the fault injector (`FaultInjector`) may cut the exchange short,
/// chained parts are joined (`CommandChain`), and the plain command goes to the file system
/// (`ChipFileSystem`: SELECT, READ BINARY) or to the protocol handler registered for its
/// instruction (`ProtocolHandlerRegistry`: BAC, PACE with GM/IM/CAM, Chip Authentication, Terminal
/// Authentication, Active Authentication), whose outcome may open, replace or end the session and
/// grant access to the files.
///
/// It answers like a card: every problem is a status word, never a thrown error, except the
/// `tagLost` fault, which breaks the link as a card leaving the field does.
public final class SimulatedChip: APDUTransport {

    public let configuration: ChipConfiguration
    private let faults: FaultInjector
    /// Where nonces and key material come from: the system's generator, or fixed bytes in tests
    /// that replay the 9303-11 worked examples.
    private let random: RandomSource
    private let state: Mutex<State>

    /// What the chip remembers between commands; a reset (power cycle) starts it afresh.
    private struct State {
        var fileSystem: ChipFileSystem
        var handlers: ProtocolHandlerRegistry
        var session: ChipSession?
        var accessGranted = false
        /// Protected files Terminal Authentication opened in this session.
        var unlockedFiles: Set<UInt16> = []
        /// Commands received under the current session (what `FaultTrigger.secureCommand` counts).
        var secureCommands = 0
        /// Commands received since Chip Authentication replaced the session's keys (nil: never).
        var commandsUnderNewKeys: Int?
        var chain = CommandChain()
        var statistics = LinkStatistics()
    }

    public convenience init(configuration: ChipConfiguration) {
        self.init(configuration: configuration, random: .system)
    }

    /// A chip drawing its nonces and keys from `random`: fixed bytes make its runs repeatable
    /// (the worked examples, the `pace` fuzz target's recorded transcripts).
    public convenience init(configuration: ChipConfiguration, random: RandomSource) {
        self.init(configuration: configuration, extraHandlers: [], random: random)
    }

    /// A chip whose protocol handlers are `extraHandlers` (answering first, so a test can stand in
    /// for a standard protocol) and the standard ones, drawing random bytes from `random`.
    init(
        configuration: ChipConfiguration, extraHandlers: [any ProtocolHandler],
        random: RandomSource
    ) {
        self.configuration = configuration
        self.random = random
        faults = FaultInjector(faults: configuration.faults)
        let handlers = ProtocolHandlerRegistry(extraHandlers + ProtocolHandlerRegistry.standard(for: configuration))
        state = Mutex(State(fileSystem: ChipFileSystem(configuration: configuration), handlers: handlers))
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

    /// A power cycle: the session, the access rights, the selection, any chain and any protocol
    /// run in progress are gone.
    public func reset() {
        state.withLock { state in
            endSession(&state)
            state.fileSystem.reset()
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

    // MARK: - Secure messaging and faults

    private func answer(_ command: CommandAPDU, state: inout State) -> (
        Result<ResponseAPDU, TransportError>, Duration
    ) {
        guard command.cla & 0x0C == 0x0C else {
            if command.needsExtendedLength && !configuration.supportsExtendedLength {
                return (.success(refuseExtendedLength(state: &state)), .zero)
            }
            return plainAnswer(command, state: &state)
        }
        return protectedAnswer(command, state: &state)
    }

    private func plainAnswer(_ command: CommandAPDU, state: inout State) -> (
        Result<ResponseAPDU, TransportError>, Duration
    ) {
        if state.session != nil {
            // A plain command ends a secure-messaging session (ISO 7816-4 §10.2).
            endSession(&state)
        }
        let decision = faults.decide(
            secureCommandNumber: nil, command: command, reading: state.fileSystem.target(of: command))
        switch decision.outcome {
        case .tagLost: return (.failure(.TagLost), .zero)
        case .bareStatusWord(let status): return (.success(ResponseAPDU(statusWord: status)), .zero)
        case .dropSession, nil: break
        }
        let outcome = process(command, responseBudget: nil, protectedBy: nil, state: &state)
        apply(outcome, state: &state)
        return (.success(outcome.response), decision.delay)
    }

    private func protectedAnswer(_ protected: CommandAPDU, state: inout State) -> (
        Result<ResponseAPDU, TransportError>, Duration
    ) {
        guard var session = state.session else {
            return (.success(ResponseAPDU(statusWord: .secureMessagingDataObjectsIncorrect)), .zero)
        }
        state.secureCommands += 1
        state.commandsUnderNewKeys = state.commandsUnderNewKeys.map { $0 + 1 }
        let command: CommandAPDU
        do throws(ChipSession.Rejection) {
            command = try session.unwrap(protected)
        } catch {
            endSession(&state)
            return (.success(ResponseAPDU(statusWord: error.status)), .zero)
        }
        if (protected.needsExtendedLength || (command.expectedLength ?? 0) > CommandAPDU.maximumShortExpectedLength)
            && !configuration.supportsExtendedLength
        {
            // An extended APDU, or a 2-byte DO'97' asking for an answer only extended length
            // carries. The command counted (its MAC was checked); a bare status word advances
            // neither side's counter further.
            state.session = session
            return (.success(refuseExtendedLength(state: &state)), .zero)
        }
        let decision = faults.decide(
            secureCommandNumber: state.secureCommands, command: command, reading: state.fileSystem.target(of: command),
            firstUnderNewKeys: state.commandsUnderNewKeys == 1)
        switch decision.outcome {
        case .tagLost:
            return (.failure(.TagLost), .zero)
        case .dropSession:
            endSession(&state)
            return (.success(ResponseAPDU(statusWord: .secureMessagingDataObjectsIncorrect)), .zero)
        case .bareStatusWord(let status):
            state.session = session
            return (.success(ResponseAPDU(statusWord: status)), .zero)
        case nil:
            break
        }
        let oddInstruction = command.ins & 1 == 1
        let budget = protected.expectedLength.map {
            session.plainCapacity(forWireLength: $0, oddInstruction: oddInstruction)
        }
        let outcome = process(command, responseBudget: budget, protectedBy: session.cipher, state: &state)
        // The answer goes under the keys that protected the command, whatever the outcome does next.
        let wrapped = session.wrap(
            outcome.response, oddInstruction: oddInstruction, omitStatusWord: faults.omitsStatusWordObject,
            corruptMAC: decision.corruptsResponseMAC)
        state.session = session
        apply(outcome, state: &state)
        let status = outcome.response.statusWord
        if faults.endsSessionOnError, !status.isSuccess, !status.isWarning { endSession(&state) }
        return (.success(wrapped), decision.delay)
    }

    /// The answer of a chip without extended length to a command that needs it
    /// (`ChipConfiguration.extendedLengthRefusal`).
    private func refuseExtendedLength(state: inout State) -> ResponseAPDU {
        switch configuration.extendedLengthRefusal {
        case .wrongLength:
            return ResponseAPDU(statusWord: .wrongLength)
        case .endsSecureMessaging:
            endSession(&state)
            return ResponseAPDU(statusWord: .secureMessagingDataObjectsIncorrect)
        }
    }

    /// Carries out what a handler's outcome does to the session and the access rights.
    private func apply(_ outcome: ProtocolOutcome, state: inout State) {
        switch outcome.session {
        case .keep:
            break
        case .establish(let session):
            state.session = session
            state.secureCommands = 0
            state.commandsUnderNewKeys = nil
        case .replaceKeys(let keys):
            state.commandsUnderNewKeys = 0
            if var session = state.session {
                session.replaceKeys(with: keys)
                state.session = session
            } else {
                state.session = ChipSession(keys: keys)
                state.secureCommands = 0
            }
        case .end:
            endSession(&state)
        }
        if outcome.grantsAccess && state.session != nil { state.accessGranted = true }
        if state.session != nil { state.unlockedFiles.formUnion(outcome.unlocksFiles) }
    }

    private func endSession(_ state: inout State) {
        state.session = nil
        state.accessGranted = false
        state.unlockedFiles = []
        state.secureCommands = 0
        state.commandsUnderNewKeys = nil
        state.chain.abandon()
        state.handlers.reset()
    }

    // MARK: - Plain commands

    /// Answers a plain command: CLA checked, chained parts joined, then the file system or the
    /// protocol handler of the instruction.
    private func process(
        _ command: CommandAPDU, responseBudget: Int?, protectedBy cipher: BlockCipher?, state: inout State
    ) -> ProtocolOutcome {
        // Interindustry class only: no logical channels, no proprietary bits; SM and chaining allowed.
        guard command.cla & 0xE3 == 0x00 else { return ProtocolOutcome(.classNotSupported) }
        var command = command
        var chained = false
        if state.handlers.interpretsChaining(command.ins) && !state.chain.isOpen {
            chained = command.cla & CommandChain.bit != 0
        } else {
            switch state.chain.take(command) {
            case .accumulated: return ProtocolOutcome(.success)
            case .rejected(let status): return ProtocolOutcome(status)
            case .complete(let whole): command = whole
            }
        }
        if faults.refusesExpectedLength(of: command) { return ProtocolOutcome(.wrongLength) }
        switch command.ins {
        case 0xA4:
            return ProtocolOutcome(state.fileSystem.select(command))
        case 0xB0, 0xB1:
            return ProtocolOutcome(
                state.fileSystem.readBinary(
                    command, responseBudget: responseBudget, accessGranted: state.accessGranted,
                    unlockedFiles: state.unlockedFiles, faults: faults))
        default:
            let context = ProtocolContext(
                random: random, secureMessaging: cipher, isChained: chained, responseBudget: responseBudget)
            return state.handlers.handle(command, context: context) ?? ProtocolOutcome(.instructionNotSupported)
        }
    }

    // MARK: - Helpers

    /// The MRZ text of a DG1 (tag 61 holding 5F1F), or nil.
    static func machineReadableZone(_ bytes: [UInt8]) -> String? {
        guard let (dataGroup, _) = try? ASN1Node.parsePrefix(bytes, rules: .ber), dataGroup.tag == ASN1Tag(0x61),
            let mrz = dataGroup.child(ASN1Tag(0x5F1F))
        else { return nil }
        return String(decoding: mrz.content, as: UTF8.self)
    }
}
