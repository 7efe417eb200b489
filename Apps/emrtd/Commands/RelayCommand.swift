import ChipSimulator
import Connector
import Files
import Foundation
import JSON
import PCSC
import Synchronization
import Transport

/// `emrtd relay`: the client side of `emrtd serve` from a terminal: relays the server's APDUs
/// to a card in a PC/SC reader or to the chip simulator, and reports how the server ended.
enum RelayCommand: Command {
    static let name = "relay"
    static let summary = "have a validation server (emrtd serve) read a chip through this machine"
    static let usage = """
        usage: emrtd relay (--reader NAME [--wait SECONDS] [--timeout MS] | --simulator [DIR] [--specimen-out OUT] [--pace NAME[:PARAM]]... [--no-pace]
                            [--pace-only] [--chip-can CAN])
                           --server URL --client-id ID [--validation-id ID] [--token TOKEN] [--header NAME:VALUE]...
                           (--mrz DOCNUMBER DATEOFBIRTH DATEOFEXPIRY | --can CAN | --mrz-lines LINE...)
                           [--files minimal|minimalKYC|standard|all] [--ca FILE] [--server-timeout S] [--json]
                           [--drop-after N]
               emrtd relay --simulator --specimen-out OUT

        Connects to the validation server at URL (ws://HOST:PORT/ws/validate or wss://…), names
        the tenant (--client-id) and the scan (--validation-id, default a fresh UUID) with the
        tenant's session token for them (--token: emrtd token mints one; an open tenant needs
        none), sends the access key and the selection (--files, default standard), and relays
        every APDU the server sends to the chip until the server closes. Prints the close code
        and reason (--json: an object with code, reason, postConfirmed, resultSafe, apdus and the
        result when the tenant receives it).
        --header NAME:VALUE is forwarded to the tenant's result server. --ca trusts a CA (PEM) for
        wss://. --server-timeout (default 30 s) bounds each wait for the server.
        --reader NAME relays a card in that PC/SC reader ("" for the only one with a card),
        waiting --wait SECONDS for it (default 10) and --timeout MS for each answer (default 5000);
        --simulator relays the chip simulator in this process (DIR: its files; without DIR a
        specimen made now). --specimen-out OUT writes that specimen's files (the dump layout) and
        its CSCA (OUT/csca.pem) to OUT; without --server it does only that, so that servers can
        trust the CSCA (--csca OUT/csca.pem) and relays read the same chip (--simulator OUT).
        The server chooses the access protocol.
        --drop-after N exits at once, without closing, after relaying N APDUs (a client that
        vanishes, for tests of a server).
        \(AccessOptions.usage)
        The simulated chip's options:
        \(SimulatedChipOptions.usage)
        Exit status: 0 the result is safe: its POST confirmed (close 1000) or stored in the
        server's outbox and being delivered (4008), 1 any other ending, 2 wrong command line.
        """

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        let readerGiven = arguments.contains("--reader")
        let readerWaitGiven = arguments.contains("--wait")
        let readerTimeoutGiven = arguments.contains("--timeout")
        let reader = try ReaderOptions.read(&arguments, defaultWait: .seconds(10))
        let simulator = arguments.variadic("--simulator")
        let specimenOutput = try arguments.option("--specimen-out")
        let chipOptions = try SimulatedChipOptions.read(&arguments)
        let serverText = try arguments.option("--server")
        if let specimenOutput, simulator == [], serverText == nil {
            try arguments.noPositionals()
            _ = try makeSpecimen(try chipOptions.credentials(), options: chipOptions, writingTo: specimenOutput)
            return 0
        }
        let access = try AccessOptions.read(&arguments)
        guard let server = serverText.flatMap(URL.init(string:)) else {
            throw UsageError("--server URL is required (ws://HOST:PORT\(ValidationProtocol.path))")
        }
        guard server.scheme == "ws" || server.scheme == "wss", server.host != nil else {
            throw UsageError(
                "--server takes a ws:// or wss:// URL (ws://HOST:PORT\(ValidationProtocol.path)), not '\(server)'")
        }
        guard let clientId = try arguments.option("--client-id") else { throw UsageError("--client-id is required") }
        let validationId = try arguments.option("--validation-id") ?? UUID().uuidString
        let token = try arguments.option("--token")
        var headers: [String: String] = [:]
        for header in try arguments.options("--header") {
            guard let colon = header.firstIndex(of: ":") else { throw UsageError("--header takes NAME:VALUE") }
            headers[String(header[..<colon])] = String(header[header.index(after: colon)...]).trimmingCharacters(
                in: .whitespaces)
        }
        let filesName = try arguments.option("--files") ?? FilesToRead.standard.rawValue
        guard let files = FilesToRead(rawValue: filesName) else {
            throw UsageError("--files takes \(FilesToRead.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let caFile = try arguments.option("--ca")
        let serverTimeout = try arguments.integer("--server-timeout", in: 1...3600, unit: "seconds")
        let dropAfter = try arguments.integer("--drop-after", in: 0...1_000_000, unit: "APDUs")
        let json = arguments.flag("--json")
        try arguments.noPositionals()
        guard readerGiven != (simulator != nil) else {
            throw UsageError("give either --reader NAME or --simulator [DIR]")
        }
        guard (simulator?.count ?? 0) <= 1 else { throw UsageError("--simulator takes at most one directory") }
        guard readerGiven || !(readerWaitGiven || readerTimeoutGiven) else {
            throw UsageError("--wait and --timeout concern a card in a --reader")
        }
        guard simulator != nil || (!chipOptions.given && specimenOutput == nil) else {
            throw UsageError(
                "--pace, --no-pace, --pace-only, --chip-can and --specimen-out describe the simulated chip")
        }
        guard simulator?.isEmpty != false || specimenOutput == nil else {
            throw UsageError("--specimen-out writes a specimen, not the files of DIR")
        }

        var transport: any APDUTransport
        if let simulator {
            var credentials = try chipOptions.credentials()
            let files: ChipFiles
            if let directory = simulator.first {
                do throws(ChipSimulatorError) {
                    let url = URL(fileURLWithPath: directory)
                    files = try ChipFiles(directory: url)
                    try credentials.restoreKeys(fromDirectory: url)
                } catch {
                    throw CommandFailure(error.reason)
                }
            } else {
                (files, credentials) = try makeSpecimen(credentials, options: chipOptions, writingTo: specimenOutput)
            }
            transport = SimulatedChip(configuration: chipOptions.configuration(files: files, credentials: credentials))
        } else {
            transport = try reader.connect()
        }
        if let dropAfter { transport = VanishingTransport(transport, after: dropAfter) }

        let connector = Connector(
            serverURL: server, clientId: clientId, validationId: validationId, token: token, headers: headers,
            caFile: caFile)
        let outcome: ValidationOutcome
        do throws(ConnectorError) {
            outcome = try connector.validate(
                transport: transport, accessKey: access.accessKey, filesToRead: files,
                timeout: .seconds(serverTimeout ?? 30))
        } catch {
            throw CommandFailure(error.reason)
        }
        if json {
            let value: JSONValue = [
                "validationId": .string(validationId), "code": .integer(Int(outcome.code.rawValue)),
                "reason": .string(outcome.reason), "postConfirmed": .bool(outcome.postConfirmed),
                "resultSafe": .bool(outcome.resultSafe),
                "apdus": .integer(outcome.apdus), "result": outcome.result ?? .null,
            ]
            print(value.serialized(pretty: true))
        } else {
            print("closed \(outcome.code): \(outcome.reason) (\(outcome.apdus) APDUs)")
        }
        return outcome.resultSafe ? 0 : 1
    }
}

extension RelayCommand {
    /// A fresh specimen for `credentials`; with `directory`, its files, its CSCA (`csca.pem`) and
    /// its chip's keys (`chip-keys.der`, 0600, so `--simulator DIR` later proves itself with them),
    /// written as `read --out` writes a dump: staged, the folder replaced whole, no link followed.
    fileprivate static func makeSpecimen(
        _ credentials: Credentials, options: SimulatedChipOptions, writingTo directory: String?
    ) throws -> (ChipFiles, Credentials) {
        do {
            // A chip with Terminal Authentication gets the rich specimen, whose DG3 it opens (as `read`).
            let specimen = try Specimen.generate(
                rich: options.terminalAuthentication != nil, credentials: credentials, layout: options.layout)
            if let directory {
                let folder = try StagedFolder(for: directory)
                do {
                    try specimen.files.write(into: folder)
                    try folder.write(Array(specimen.countrySigningCertificatePEM.utf8), named: "csca.pem")
                    try folder.write(
                        try specimen.credentials.keysFile(), named: Credentials.keysFileName, mode: 0o600)
                    try folder.commit()
                } catch {
                    folder.discard()
                    throw error
                }
            }
            return (specimen.files, specimen.credentials)
        } catch let error as ChipSimulatorError {
            throw CommandFailure(error.reason)
        } catch let error as FilesError {
            throw CommandFailure("cannot write the specimen: \(error.reason)")
        }
    }
}

/// A client that vanishes: after `count` APDUs the process exits at once, closing nothing, as
/// a phone whose app is killed mid-read (`--drop-after`).
private final class VanishingTransport: APDUTransport {
    private let base: any APDUTransport
    private let count: Int
    private let sent = Atomic<Int>(0)

    init(_ base: any APDUTransport, after count: Int) {
        self.base = base
        self.count = count
    }

    var supportsExtendedLength: Bool { base.supportsExtendedLength }

    func transmit(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU {
        if sent.add(1, ordering: .relaxed).newValue > count { _exit(3) }
        return try base.transmit(command)
    }
}
