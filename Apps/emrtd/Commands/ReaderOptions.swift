import Emrtd
import Foundation
import PCSC
import Transport

/// The reader group `read`, `dump` and `relay` share: `--reader NAME` (the PC/SC reader; "" or
/// none: the only reader holding a card), `--wait SECONDS` (how long to wait for a card),
/// `--timeout MS` (the longest wait for one answer of the chip).
struct ReaderOptions {
    let name: String?
    let wait: Duration
    let timeout: Duration

    /// Takes the options out of `arguments`; `defaultWait` when `--wait` is absent.
    static func read(_ arguments: inout ArgumentReader, defaultWait: Duration) throws -> ReaderOptions {
        let name = try arguments.option("--reader")
        let wait = try readWait(&arguments)
        let timeout = try arguments.integer("--timeout", in: 1...600_000, unit: "milliseconds").map {
            Duration.milliseconds($0)
        }
        return ReaderOptions(name: name, wait: wait ?? defaultWait, timeout: timeout ?? .milliseconds(5000))
    }

    /// `--wait SECONDS`, nil when absent.
    private static func readWait(_ arguments: inout ArgumentReader) throws -> Duration? {
        try arguments.option("--wait").map { text -> Duration in
            // Finite and bounded: `inf` or 9223372036854775807 would trap when made a Duration.
            guard let seconds = Double(text), seconds.isFinite, (0...86_400).contains(seconds) else {
                throw UsageError("--wait takes seconds, 0 to 86400, not '\(text)'")
            }
            return .milliseconds(Int64(seconds * 1000))
        }
    }

    /// The card in the reader the options name (or the only reader holding one), waited for
    /// `--wait`, each answer awaited `--timeout`.
    /// A reader that is not there (no PC/SC service, no reader, another program holding it) is
    /// the reference's `NfcUnavailable`, raised before the read as its platform layer does; no
    /// card in time is `NotConnected`.
    func connect() throws(ReadError) -> PCSCTransport {
        do throws(TransportError) {
            let context = try PCSCContext()
            let place = pcscName ?? "any PC/SC reader"
            let reader = try context.waitForCard(in: pcscName, timeout: wait) {
                // Said on a terminal only: a script's stderr stays as it was.
                guard isatty(STDERR_FILENO) == 1 else { return }
                printError(
                    "emrtd: waiting for a card in \(place)… (up to \(wait.components.seconds) s, Ctrl-C to stop)")
            }
            return try context.connect(reader: reader.name, timeout: timeout)
        } catch .Timeout {
            let place = pcscName.map { "in the reader '\($0)'" } ?? "in any PC/SC reader"
            throw ReadError(.notConnected, "cannot reach the card: no card \(place)")
        } catch {
            throw ReadError(.nfcUnavailable, "cannot reach the card: \(pcscMessage(error))")
        }
    }

    /// The reader's name for PC/SC: nil for "any reader holding a card".
    var pcscName: String? { name.flatMap { $0.isEmpty ? nil : $0 } }

    /// `timeout` as `ReaderConfig.timeoutMs`.
    var timeoutMilliseconds: UInt32 {
        UInt32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
    }
}
