import ChipSimulator
import Files
import Foundation

/// `emrtd simulate`: puts the chip simulator behind a real pcscd through vsmartcard's vpcd
/// driver, so `emrtd read --reader` (or any PC/SC program) reads it like a card on a reader.
/// `Tools/simulator.sh` starts it together with a pcscd of its own.
enum SimulateCommand: Command {
    static let name = "simulate"
    static let summary = "serve the chip simulator to pcscd's vpcd driver (a card with no hardware)"
    static let usage = """
        usage: emrtd simulate [DIR] [--rich] [--csca-out FILE] [--port PORT] [--host ADDRESS]
                              [--max-read N] [--short-only] [--pace NAME[:PARAM]]... [--no-pace] [--pace-only]
                              [--chip-can CAN] [--chip-authentication NAME[:PARAM]]... [--no-chip-authentication]
                              [--active-authentication KEY] [--no-active-authentication]
                              [--no-chip-authentication-info] [--explicit-domain-parameters] [--chip-fault NAME]...
                              [--leave-mid-read]

        Connects a simulated eMRTD chip to vpcd (default 127.0.0.1:35963, the reader
        "Virtual PCD 00 00") and serves it until vpcd hangs up. The chip holds the files of DIR
        (the `emrtd dump` layout: COM.bin, SOD.bin, DG1.bin…, CardAccess.bin) or, without DIR,
        a specimen made now (ICAO's Anna Maria Eriksson, BAC key L898902C< 690806 940623; --rich
        adds DG3, DG5, DG7, DG13, DG16; DG14, DG15 and EF.CardSecurity hold the chip's keys, below)
        signed by a fresh test CSCA, which --csca-out writes as
        PEM for `emrtd read --csca`. The BAC key comes from the MRZ in DG1. --max-read caps the
        bytes one READ BINARY returns; --short-only refuses extended-length APDUs.
        --leave-mid-read makes the card leave the reader when DG2 is read (as a document
        pulled away during a read): the simulator ends, pcscd sees the card removed.
        \(SimulatedChipOptions.usage)
        Exit status: 0 vpcd hung up, 1 no files or no vpcd, 2 wrong command line.
        """

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        let port = try arguments.integer("--port", in: 0...65535, unit: "(a TCP port)").map { UInt16($0) }
        let host = try arguments.option("--host") ?? "127.0.0.1"
        let maximumRead = try arguments.integer("--max-read", in: SimulatedChipLimits.maximumReads, unit: "bytes")
        let shortOnly = arguments.flag("--short-only")
        let leaveMidRead = arguments.flag("--leave-mid-read")
        let rich = arguments.flag("--rich")
        let authorityOutput = try arguments.option("--csca-out")
        let chipOptions = try SimulatedChipOptions.read(&arguments)
        let positionals = try arguments.positionals(atMost: 1)
        var credentials = try chipOptions.credentials()
        let files: ChipFiles
        do {
            if let directory = positionals.first {
                guard !rich, authorityOutput == nil else {
                    throw UsageError("--rich and --csca-out apply to the generated specimen, not to DIR")
                }
                files = try ChipFiles(directory: URL(fileURLWithPath: directory))
                try credentials.restoreKeys(fromDirectory: URL(fileURLWithPath: directory))
            } else {
                let specimen = try Specimen.generate(rich: rich, credentials: credentials, layout: chipOptions.layout)
                files = specimen.files
                credentials = specimen.credentials
                if let authorityOutput {
                    do throws(FilesError) {
                        try AtomicFile.write(Array(specimen.countrySigningCertificatePEM.utf8), to: authorityOutput)
                    } catch {
                        throw CommandFailure(error.reason)
                    }
                }
            }
        } catch let error as ChipSimulatorError {
            throw CommandFailure(error.reason)
        }
        var configuration = chipOptions.configuration(
            files: files, credentials: credentials, supportsExtendedLength: !shortOnly)
        if let maximumRead { configuration.maximumReadLength = maximumRead }
        if leaveMidRead { configuration.faults.append(.tagLost(.readOf(0x0102))) }
        let bridge = VPCDBridge(
            chip: SimulatedChip(configuration: configuration), host: host, port: port ?? VPCDBridge.defaultPort)
        do {
            try bridge.run {
                FileHandle.standardOutput.write(
                    Data("emrtd simulate: connected to vpcd at \(bridge.host):\(bridge.port)\n".utf8))
            }
        } catch {
            throw CommandFailure(error.reason)
        }
        return 0
    }
}
