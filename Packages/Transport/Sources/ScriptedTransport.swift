import ASN1
import Synchronization

/// A card played from a script, for tests: each step names the command expected next (its exact
/// bytes on the wire) and the answer to give. Any other command fails the exchange with
/// `TransportError.Unexpected` and is recorded, and so does every command after it, so a test
/// cannot pass by accident after a divergence. A test ends by checking `isComplete`.
public final class ScriptedTransport: APDUTransport {
    public struct Step: Sendable {
        enum Expectation: Sendable {
            case command([UInt8], Result<ResponseAPDU, TransportError>)
            case handler(String, @Sendable (CommandAPDU) throws(TransportError) -> ResponseAPDU)
        }
        let expectation: Expectation

        /// Expects `command` (hex, spaces allowed) and answers `response` (data and status word, hex).
        /// Script text is test code: malformed hex stops the test with its text.
        public static func exchange(_ command: String, _ response: String) -> Step {
            exchange(scriptHex(command), scriptHex(response))
        }

        /// Expects the `command` bytes and answers `response` (data and status word).
        public static func exchange(_ command: [UInt8], _ response: [UInt8]) -> Step {
            let answer = Result { () throws(TransportError) in try ResponseAPDU(encoded: response) }
            return Step(expectation: .command(command, answer))
        }

        /// Expects `command` and fails the exchange with `error` (a lost card, a timeout).
        public static func failure(_ command: String, _ error: TransportError) -> Step {
            Step(expectation: .command(scriptHex(command), .failure(error)))
        }

        /// Answers whatever command comes next by computing the response, for exchanges that
        /// involve fresh randomness (BAC's EXTERNAL AUTHENTICATE). The handler checks the command
        /// and throws `TransportError.Unexpected` to reject it (recorded as a failure).
        public static func respond(
            _ label: String, _ handler: @escaping @Sendable (CommandAPDU) throws(TransportError) -> ResponseAPDU
        ) -> Step {
            Step(expectation: .handler(label, handler))
        }

        private static func scriptHex(_ text: String) -> [UInt8] {
            guard let bytes = Hex.decode(text) else { preconditionFailure("script has malformed hex: \(text)") }
            return bytes
        }
    }

    private struct State {
        var steps: [Step]
        var next = 0
        var failures: [String] = []
    }

    private let state: Mutex<State>
    public let supportsExtendedLength: Bool

    public init(_ steps: [Step], supportsExtendedLength: Bool = false) {
        state = Mutex(State(steps: steps))
        self.supportsExtendedLength = supportsExtendedLength
    }

    /// Every step was played and no unexpected command came.
    public var isComplete: Bool { state.withLock { $0.failures.isEmpty && $0.next == $0.steps.count } }
    /// Descriptions of the commands that did not match the script.
    public var failures: [String] { state.withLock { $0.failures } }
    /// How many steps have been played.
    public var playedSteps: Int { state.withLock { $0.next } }

    public func transmit(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU {
        let wire = try command.encoded()
        let step: Step? = state.withLock { state in
            guard state.failures.isEmpty else {
                state.failures.append("after an earlier failure: \(Hex.encode(wire, separator: " "))")
                return nil
            }
            guard state.next < state.steps.count else {
                state.failures.append("step \(state.next + 1): script ended, got \(Hex.encode(wire, separator: " "))")
                return nil
            }
            let step = state.steps[state.next]
            if case .command(let expected, _) = step.expectation, expected != wire {
                state.failures.append(
                    "step \(state.next + 1): expected \(Hex.encode(expected, separator: " ")), got \(Hex.encode(wire, separator: " "))"
                )
                return nil
            }
            state.next += 1
            return step
        }
        guard let step else {
            throw .Unexpected(detail: "scripted transport: \(failures.last ?? "unexpected command")")
        }
        switch step.expectation {
        case .command(_, let answer):
            return try answer.get()
        case .handler(let label, let handler):
            do throws(TransportError) {
                return try handler(command)
            } catch {
                // A handler rejecting the command is a divergence; a deliberate lost card is not.
                if case .Unexpected = error { state.withLock { $0.failures.append("\(label): \(error)") } }
                throw error
            }
        }
    }
}
