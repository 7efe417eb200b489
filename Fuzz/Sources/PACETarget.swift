import AccessControl
import ChipSimulator
import Foundation
import MRZ
import Secrets
import SecureMessaging
import Synchronization
import Transport

/// The chip's answers during PACE. A chip answering at random never gets past step 1, so the
/// target replays a real run: the reader (`ChipAccess.open`) against the simulated chip, both
/// drawing from fixed random streams, recorded once per scenario. Every input replays that
/// transcript with one answer replaced by the fuzzer's bytes, so each GENERAL AUTHENTICATE step
/// (and EF.CardAccess, MSE:Set AT, the SELECT under secure messaging) is reached with valid
/// answers before it.
///
/// The first byte picks the scenario (high nibble, modulo `paceScenarios.count`) and the answer to
/// replace (low nibble, modulo the transcript's length: 0 SELECT MF, 1 SELECT EF.CardAccess, 2–3
/// READ BINARY, 4 MSE:Set AT, 5–8 GENERAL AUTHENTICATE steps 1–4, 9 SELECT of the application under
/// secure messaging). The rest is that answer: its data, then the status word (fewer than two
/// bytes: the card leaves the field instead). The reader's random stream is the recording's, so
/// its commands up to the replaced answer are the recorded ones.
///
/// Properties: the reader never traps; a success is PACE with the scenario's protocol and the
/// recorded session keys (the chip's token verified, so the keys are the chip's); a wrong
/// password (`.accessDenied` from PACE) is only ever the answer to mutual authentication.
let paceTarget = FuzzTarget(name: "pace") { input in
    guard let control = input.first else { return }
    let recordings = PACERecording.all
    guard !recordings.isEmpty else { fatalError("no PACE scenario could be recorded") }
    let recording = recordings[Int(control >> 4) % recordings.count]
    let replaced = Int(control & 0x0F) % recording.answers.count
    let chip = ReplayedChip(recording: recording, replacing: replaced, with: Array(input.dropFirst()))
    do throws(AccessControlError) {
        let session = try ChipAccess.open(
            chip, accessKey: recording.scenario.accessKey, random: PACERecording.readerRandom())
        guard case .pace(let result) = session.access else {
            fatalError("fuzz property violated: opened with \(session.access) from a replayed PACE run")
        }
        guard let keys = session.secureChannel?.currentSession else {
            fatalError("fuzz property violated: PACE opened the chip without a secure channel")
        }
        fuzzCheck(result.paceProtocol == recording.scenario.offer.paceProtocol, "PACE ran \(result.paceProtocol)")
        fuzzCheck(
            keys.encryptionKey == recording.session.encryptionKey && keys.macKey == recording.session.macKey,
            "PACE succeeded with session keys other than the chip's (answer \(replaced) replaced)")
    } catch {
        if error.code == .accessDenied, error.accessProtocol == .pace {
            fuzzCheck(
                replaced == recording.mutualAuthenticationIndex,
                "PACE denied access on answer \(replaced), not mutual authentication")
        }
    }
}

/// One run to record: what the chip offers and which password the reader holds.
struct PACEScenario: Sendable {
    let offer: ChipSimulator.PACEOffer
    let accessKey: AccessPassword
    let configuration: ChipConfiguration
}

/// The scenarios, one per mapping and key agreement, with both passwords and all three block
/// cipher families.
private let paceScenarioNames: [(offer: String, can: Bool)] = [
    ("ECDH-GM-AES-128:13", false),  // brainpoolP256r1, the simulator's default
    ("DH-GM-3DES:0", true),  // 1024-bit MODP
    ("ECDH-IM-AES-256:12", false),  // P-256
    ("ECDH-CAM-AES-128:13", true),
    ("DH-IM-AES-192:0", false),
    ("ECDH-GM-3DES:8", true),  // secp192r1
]

/// A recorded run: the answers the chip gave, the commands the reader sent, and the session.
struct PACERecording: Sendable {
    let scenario: PACEScenario
    let commands: [CommandAPDU]
    let answers: [ResponseAPDU]
    let session: SecureMessagingSession
    /// Which answer is mutual authentication's (GENERAL AUTHENTICATE with CLA 00).
    let mutualAuthenticationIndex: Int

    /// Every scenario, recorded on first use.
    static let all: [PACERecording] = paceScenarioNames.compactMap { name, can in
        do {
            return try record(try scenario(offer: name, can: can))
        } catch {
            FileHandle.standardError.write(Data("pace: cannot record \(name): \(error)\n".utf8))
            return nil
        }
    }

    static let can = "123456"

    static func scenario(offer name: String, can: Bool) throws -> PACEScenario {
        let offer = try ChipSimulator.PACEOffer(named: name)
        var configuration = ChipConfiguration(files: ChipFiles())
        configuration.credentials.can = CardAccessNumber(Self.can)
        configuration.credentials.mrz = MRZPassword(
            documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")
        if offer.paceProtocol.mapping == .chipAuthenticationMapping {
            // A fixed Chip Authentication key, so that A_IC is the same in every recording.
            configuration.credentials.chipAuthenticationKeys = [
                ChipAuthenticationKey(
                    try KeyAgreementKeyPair.generate(on: offer.parameters, random: chipRandom()))
            ]
        }
        try configuration.offerPACE([offer], only: true)
        let key =
            can
            ? try AccessPassword.can(value: Self.can)
            : try AccessPassword.mrz(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")
        return PACEScenario(offer: offer, accessKey: key, configuration: configuration)
    }

    static func record(_ scenario: PACEScenario) throws -> PACERecording {
        let recorder = Recorder(SimulatedChip(configuration: scenario.configuration, random: chipRandom()))
        let session = try ChipAccess.open(recorder, accessKey: scenario.accessKey, random: readerRandom())
        let (commands, answers) = recorder.exchanges
        guard let mutualAuthentication = commands.firstIndex(where: { $0.ins == 0x86 && $0.cla == 0x00 }) else {
            throw FuzzSetupError("the recorded run has no mutual authentication")
        }
        guard let channel = session.secureChannel else {
            throw FuzzSetupError("the recorded run has no secure channel")
        }
        return PACERecording(
            scenario: scenario, commands: commands, answers: answers, session: channel.currentSession,
            mutualAuthenticationIndex: mutualAuthentication)
    }

    /// The reader's random stream: the same in the recording and in every replay.
    static func readerRandom() -> RandomSource { RandomSource.repeatable(seed: 0x7265_6164_6572) }
    /// The chip's random stream.
    static func chipRandom() -> RandomSource { RandomSource.repeatable(seed: 0x6368_6970) }

    /// The seeds: every recorded answer of every scenario, unchanged (each a whole successful
    /// run), and mutual authentication answered 6300.
    static func seeds() -> [(name: String, bytes: [UInt8])] {
        var seeds: [(String, [UInt8])] = []
        for (scenarioIndex, recording) in all.enumerated() {
            for (index, answer) in recording.answers.enumerated() where index < 16 {
                let control = UInt8(scenarioIndex << 4 | index)
                seeds.append(
                    (
                        "\(scenarioIndex)-\(index)",
                        [control] + answer.data + [answer.statusWord.sw1, answer.statusWord.sw2]
                    ))
            }
            let control = UInt8(scenarioIndex << 4 | recording.mutualAuthenticationIndex)
            seeds.append(("\(scenarioIndex)-denied", [control, 0x63, 0x00]))
        }
        return seeds
    }
}

struct FuzzSetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension RandomSource {
    /// A repeatable stream (SplitMix64 from `seed`): the same bytes in every process.
    static func repeatable(seed: UInt64) -> RandomSource {
        let state = RepeatableStream(seed: seed)
        return RandomSource { count in SecretBytes(state.next(count)) }
    }
}

private final class RepeatableStream: Sendable {
    private let state: Mutex<UInt64>
    init(seed: UInt64) { state = Mutex(seed) }

    func next(_ count: Int) -> [UInt8] {
        state.withLock { state in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(count + 8)
            while bytes.count < count {
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                z ^= z >> 31
                for shift in stride(from: 56, through: 0, by: -8) {
                    bytes.append(UInt8(truncatingIfNeeded: z >> UInt64(shift)))
                }
            }
            return Array(bytes.prefix(count))
        }
    }
}

/// Passes commands to the simulated chip and keeps every exchange.
private final class Recorder: APDUTransport {
    private let chip: SimulatedChip
    private let log = Mutex<(commands: [CommandAPDU], answers: [ResponseAPDU])>(([], []))
    init(_ chip: SimulatedChip) { self.chip = chip }

    var supportsExtendedLength: Bool { chip.supportsExtendedLength }
    var exchanges: (commands: [CommandAPDU], answers: [ResponseAPDU]) { log.withLock { $0 } }

    func transmit(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU {
        let answer = try chip.transmit(command)
        log.withLock {
            $0.commands.append(command)
            $0.answers.append(answer)
        }
        return answer
    }
}

/// Answers with the recorded answers in order, one of them replaced; past the recording the card
/// is gone.
private final class ReplayedChip: APDUTransport {
    private let recording: PACERecording
    private let replaced: Int
    private let replacement: [UInt8]
    private let next = Mutex(0)

    init(recording: PACERecording, replacing replaced: Int, with replacement: [UInt8]) {
        self.recording = recording
        self.replaced = replaced
        self.replacement = replacement
    }

    var supportsExtendedLength: Bool { true }

    func transmit(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU {
        let index = next.withLock { index in
            defer { index += 1 }
            return index
        }
        guard index < recording.answers.count else { throw .TagLost }
        if index <= replaced {
            // The reader's random stream is the recording's: up to the replaced answer it sends
            // what it sent then.
            fuzzCheck(
                command == recording.commands[index],
                "command \(index) differs from the recording although no answer before it was replaced")
        }
        guard index == replaced else { return recording.answers[index] }
        guard replacement.count >= 2 else { throw .TagLost }
        let statusWord = StatusWord(sw1: replacement[replacement.count - 2], sw2: replacement[replacement.count - 1])
        return ResponseAPDU(data: Array(replacement.dropLast(2)), statusWord: statusWord)
    }
}
