import Emrtd
import Foundation
import Glibc
import MRZ
import PCSC
import Synchronization
import Transport

/// Set by SIGINT during `emrtd read --watch`: the loop ends before the next read.
let kioskInterrupted = Atomic<Bool>(false)

/// `emrtd read --reader NAME --watch`: a terminal that reads document after document. Per card:
/// the key (the command line's for the first card; with `--mrz-lines -` the next zone on
/// standard input for each later one), wait for a card, read it, print (and write the numbered
/// report and dump), wait until it is taken away. A card removed mid-read fails that read
/// (printed) and the loop goes on. Ctrl-C and the end of standard input end the loop between
/// reads, with the card released (reset) and the PC/SC context closed.
enum KioskMode {
    /// How long each wait blocks before it looks at Ctrl-C again.
    static let pollInterval = Duration.milliseconds(250)

    static func run(reader: String?, access: AccessOptions, settings: ReadCommand.ReadSettings) throws -> Int32 {
        installInterruptHandler()
        let firstKey = access.accessKey
        var key: AccessPassword? = firstKey
        var count = 0
        while !kioskInterrupted.load(ordering: .relaxed) {
            if key == nil {
                // Only `--mrz-lines -` brings a new key per card; a key given once serves every card.
                key = access.keysFromStandardInput ? try AccessOptions.keyFromStandardInput() : firstKey
            }
            guard let accessKey = key, !kioskInterrupted.load(ordering: .relaxed) else { break }
            let context = try pcsc { () throws(TransportError) in try PCSCContext() }
            printError("watch: waiting for a card in '\(reader ?? "any reader")' (Ctrl-C ends)")
            guard let found = try waitForCard(context, reader: reader) else { break }
            guard
                let status = try readCard(
                    found.name, context: context, key: accessKey, number: count + 1, settings: settings)
            else {
                // pcscd still showed a card that had just left: nothing was read, the key waits.
                printError("watch: the card left before it could be read")
                try waitForRemoval(context, reader: found.name)
                continue
            }
            count += 1
            // Each card's JSON or summary reaches a pipe or file now, not when the buffer fills
            // (nil: every output stream, so no reference to the C global `stdout`).
            fflush(nil)
            printError("watch: read \(count) \(status == 0 ? "done" : "failed"); take the card away")
            key = nil
            try waitForRemoval(context, reader: found.name)
        }
        printError("watch: \(count) card\(count == 1 ? "" : "s") read; stopped")
        return 0
    }

    /// Connects, reads and lets go of the card before it returns (reset, or left alone when it
    /// left mid-read), so no handle of this read is open in pcscd while the loop waits for the
    /// card's removal and the next card. Nil when the card was gone before the connection.
    private static func readCard(
        _ reader: String, context: PCSCContext, key: AccessPassword, number: Int, settings: ReadCommand.ReadSettings
    ) throws -> Int32? {
        let transport: PCSCTransport
        do throws(TransportError) {
            transport = try context.connect(reader: reader, timeout: .milliseconds(settings.config.timeoutMs))
        } catch .TagLost {
            return nil
        } catch {
            printError("emrtd read: cannot reach the card: \(error)")
            return 1
        }
        defer { transport.disconnect() }
        // A dump or report that cannot be written (a full disk, DIR/N holding another document's
        // dump from an earlier session) fails this card's read, not the kiosk.
        do {
            return try ReadCommand.readOnce(transport, accessKey: key, settings: numbered(settings, number))
        } catch let failure as CommandFailure {
            printError("emrtd read: \(failure.message)")
            return 1
        }
    }

    /// Each read's own report and dump: `report.html` becomes `report-3.html`, `--out DIR` `DIR/3`.
    private static func numbered(_ settings: ReadCommand.ReadSettings, _ number: Int) -> ReadCommand.ReadSettings {
        let report = settings.report.map { path -> String in
            let url = URL(fileURLWithPath: path)
            let stem = url.deletingPathExtension().lastPathComponent
            let name = url.pathExtension.isEmpty ? "\(stem)-\(number)" : "\(stem)-\(number).\(url.pathExtension)"
            return url.deletingLastPathComponent().appendingPathComponent(name).path
        }
        let output = settings.output.map { URL(fileURLWithPath: $0).appendingPathComponent("\(number)").path }
        return ReadCommand.ReadSettings(
            config: settings.config, preferences: settings.preferences, challenge: settings.challenge,
            json: settings.json, debug: settings.debug, output: output, replace: settings.replace, report: report,
            simulatorCSCA: settings.simulatorCSCA, simulatorKeys: settings.simulatorKeys, origin: settings.origin,
            clock: settings.clock,
            strict: settings.strict, printedZone: settings.printedZone, trust: settings.trust)
    }

    /// The reader once it holds a card, nil after Ctrl-C.
    private static func waitForCard(_ context: PCSCContext, reader: String?) throws -> PCSCReader? {
        while !kioskInterrupted.load(ordering: .relaxed) {
            do throws(TransportError) {
                return try context.waitForCard(in: reader, timeout: pollInterval)
            } catch .Timeout {
                continue
            } catch {
                throw CommandFailure("waiting for a card: \(error)")
            }
        }
        return nil
    }

    /// Returns once the card is gone or after Ctrl-C.
    private static func waitForRemoval(_ context: PCSCContext, reader: String) throws {
        while !kioskInterrupted.load(ordering: .relaxed) {
            do throws(TransportError) {
                try context.waitForRemoval(from: reader, timeout: pollInterval)
                return
            } catch .Timeout {
                continue
            } catch {
                throw CommandFailure("waiting for the card's removal: \(error)")
            }
        }
    }

    private static func pcsc<T>(_ body: () throws(TransportError) -> T) throws -> T {
        do throws(TransportError) {
            return try body()
        } catch {
            throw CommandFailure("cannot reach the PC/SC service: \(error)")
        }
    }

    /// SIGINT sets `kioskInterrupted` instead of killing the process, without SA_RESTART, so that
    /// a wait on standard input returns at once.
    private static func installInterruptHandler() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in kioskInterrupted.store(true, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
        // A parent may have started us with SIGINT blocked (it is inherited): take it back.
        var interrupt = sigset_t()
        sigemptyset(&interrupt)
        sigaddset(&interrupt, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &interrupt, nil)
    }
}
