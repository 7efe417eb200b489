import ChipSimulator
import Files
import Foundation
import JSON
import LDS
import MRZ
import Seals

/// `emrtd seal`: decode a Visible Digital Seal (VDS or VDS-NC), verify it against the trusted
/// CSCAs, and hold it against the page's MRZ or a chip's dump.
enum SealCommand: Command {
    static let name = "seal"
    static let printsOnlyJSON = true
    static let summary = "decode and verify a visible digital seal (VDS, IDB, VDS-NC) from its bytes, text or image"
    static let usage = """
        usage: emrtd seal FILE|- [--csca FILE]... [--crl FILE]... [--masterlist FILE.ml --ml-root CERT]...
                                 [--no-builtin] [--at ISO8601] [--mrz-lines LINE...] [--dir DUMP] [--strict]
               emrtd seal --image PNG|JPEG [same options]
               emrtd seal --make DIR [--mrz-lines LINE...]

        Reads a seal as a barcode reader gives it: the raw bytes of a VDS (ICAO Doc 9303-13, starting
        with DC), the same as hexadecimal or base256 text, an IDB's text (RDB1…) or a VDS-NC's
        JSON; with --image, the DataMatrix (Debian's dmtxread, libdmtx) or QR code (zbarimg, zbar)
        in the picture. Prints the decoded seal ("seal": header, document type, typed features; or
        the VDS-NC's data and signer certificate) and the verdict ("verdict": authenticated, denied
        with its errors, or authorityCertificatesNotProvided). A VDS's signer certificate is looked
        up among the trusted certificates by the header's country, signer and certificate
        reference (give it with --csca, beside its CSCA) and checked at the seal's signature date;
        a VDS-NC's is carried, an IDB's carried or named by its SHA-1, checked at --at or now.
        Trust options as for verify.
        --mrz-lines gives the MRZ printed on the page that carries the seal; --dir a dump of the
        chip the seal belongs to (its DG1.bin). Each difference is in "checks".
        --strict (or --require authenticated) exits 3 unless the seal is authenticated and
        matches the page and the chip given.
        --make writes a test seal into DIR, never one for a real document: an emergency travel
        document's VDS carrying the MRZ of --mrz-lines (the ICAO specimen passport's without it),
        signed by a fresh test signer under a fresh test CSCA, whose keys are thrown away
        (seal.bin, signer.der, CSCA.der: `emrtd seal DIR/seal.bin --csca DIR/CSCA.der --csca
        DIR/signer.der` authenticates it).
        Exit status: 0 authenticated (and, with --strict, matching) or made, 3 not, 1 unreadable
        input or image, 2 wrong command line (the table: emrtd --help).
        """

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        if let directory = try arguments.option("--make") {
            let lines = arguments.variadic("--mrz-lines")
            try arguments.noPositionals()
            return try make(in: directory, zone: try lines.map(StrictOption.printedZone))
        }
        let image = try arguments.option("--image")
        let dump = try arguments.option("--dir")
        let strict = try StrictOption.read(&arguments)
        let printedLines = arguments.variadic("--mrz-lines")
        let trust = try TrustOptions.read(&arguments, builtIn: true)
        let positionals = try arguments.positionals(atMost: image == nil ? 1 : 0)
        let input: [UInt8]
        switch (image, positionals.first, positionals.count) {
        case (let image?, nil, 0): input = try BarcodeImage.decode(image)
        case (nil, "-", 1): input = try readStandardInput(limit: InputLimit.seal, what: "a seal")
        case (nil, let path?, 1): input = try readFile(path, limit: InputLimit.seal, what: "a seal")
        default: throw UsageError("give one seal: FILE, - or --image PNG")
        }
        let seal: Seal
        do {
            seal = try Seal(barcode: input)
        } catch {
            throw CommandFailure("not a seal: \(error.reason)")
        }
        let verdict = seal.verify(trustStore: trust.store, at: trust.time)
        var comparisons: [SealComparison] = []
        var warnings = trust.warning.map { [$0] } ?? []
        if let printedLines {
            let page = try StrictOption.printedZone(printedLines)
            if let comparison = SealComparison(seal: seal, page: page) {
                comparisons.append(comparison)
            } else {
                warnings.append("the seal carries no MRZ to hold against --mrz-lines")
            }
        }
        if let dump {
            let chip = try chipZone(dump)
            if let comparison = SealComparison(seal: seal, chip: chip) {
                comparisons.append(comparison)
            } else {
                warnings.append("the seal names no document number to hold against the chip's")
            }
        }
        for warning in warnings { printError("emrtd seal: warning: \(warning)") }
        let output: JSONValue = [
            "seal": seal.json, "verdict": verdict.json, "checks": .array(comparisons.map(\.json)),
            "warnings": .array(warnings.map(JSONValue.string)),
        ]
        print(output.serialized(pretty: true))
        let differing = comparisons.filter { !$0.matches }.map(\.against)
        if strict && !differing.isEmpty {
            printError("emrtd seal: strict mode: the seal differs from the \(differing.joined(separator: " and "))")
            return 3
        }
        return verdict.status == .authenticated ? 0 : 3
    }

    /// The ICAO specimen passport's zone (9303-4 Appendix A), the default of `--make`.
    static let specimenZone = [
        "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10",
    ]

    /// Writes a test seal (an emergency travel document, `5E03`, MRZ in feature 2) and its PKI.
    private static func make(in directory: String, zone: MachineReadableZone?) throws -> Int32 {
        let made: SealSpecimen
        do {
            made = try SealSpecimen.make(
                reference: 0x5E03, features: [(2, .c40((zone?.lines ?? specimenZone).joined()))])
        } catch {
            throw CommandFailure("cannot make a test seal: \(error)")
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("cannot create \(directory): \(fileSystemWords(error))")
        }
        let folder = URL(fileURLWithPath: directory)
        do throws(FilesError) {
            for (name, bytes) in [
                ("seal.bin", made.seal), ("signer.der", made.signerCertificate),
                ("CSCA.der", made.countrySigningCertificate),
            ] {
                try AtomicFile.write(bytes, to: folder.appendingPathComponent(name).path)
            }
        } catch {
            throw CommandFailure(error.reason)
        }
        printError("emrtd seal: a test seal, never for a real document: \(directory)/seal.bin (signer.der, CSCA.der)")
        return 0
    }

    /// DG1's zone in a dump folder.
    private static func chipZone(_ dump: String) throws -> MachineReadableZone {
        let path = URL(fileURLWithPath: dump).appendingPathComponent(LDSFileKind.dg1.dumpFileName).path
        do {
            return try MRZDataGroup(readFile(path, limit: InputLimit.ldsFile, what: "an LDS file")).machineReadableZone
        } catch let error as LDSError {
            throw CommandFailure("\(path): \(error.reason)")
        }
    }
}

/// A barcode in a picture, decoded by Debian's command-line readers: libdmtx's `dmtxread` for the
/// DataMatrix of a VDS, then zbar's `zbarimg` for the QR code of a VDS-NC.
///
/// The readers decode the picture with ImageMagick, so a hostile picture is bounded before and
/// around them: its header must declare a PNG or JPEG of at most `maximumPixels`, and each reader
/// runs under `prlimit` with `memoryLimit` of address space and is killed after `timeLimit`; a
/// reader that crashes or is killed takes only itself down.
enum BarcodeImage {
    /// A photo or scan of a seal: phone cameras take up to about 50 megapixels.
    static let maximumPixels = 64_000_000
    /// What each reader may take (dmtxread also stops itself after 5 s).
    static let memoryLimit = 2 << 30
    static let timeLimit = 20

    static func decode(_ path: String) throws -> [UInt8] {
        let picture = DocumentImage(
            bytes: try readFile(path, limit: InputLimit.sealPicture, what: "a picture of a seal"), render: false)
        guard picture.format == .png || picture.format == .jpeg else {
            throw CommandFailure("\(path) is not a PNG or JPEG picture")
        }
        let size = picture.size
        guard size.isKnown, Int(size.width) * Int(size.height) <= maximumPixels else {
            throw CommandFailure(
                "\(path): a picture of \(size.width)×\(size.height) pixels is refused "
                    + "(at most \(maximumPixels / 1_000_000) megapixels; a photo of a seal needs far fewer)")
        }
        guard let prlimit = locate("prlimit") else {
            throw CommandFailure(
                "prlimit (Debian's util-linux) is not installed: it bounds the barcode readers' memory")
        }
        var missing: [String] = []
        for (tool, arguments, package) in [
            ("dmtxread", ["-N1", "-m", "5000", path], "dmtx-utils"),
            ("zbarimg", ["--raw", "-q", "--nodbus", path], "zbar-tools"),
        ] {
            guard let executable = locate(tool) else {
                missing.append("\(tool) (Debian's \(package))")
                continue
            }
            if let output = try run(prlimit, ["--as=\(memoryLimit)", "--", executable] + arguments, tool: tool),
                !output.isEmpty
            {
                return output
            }
        }
        guard missing.isEmpty else {
            throw CommandFailure("\(path): no barcode found, and \(missing.joined(separator: ", ")) is not installed")
        }
        throw CommandFailure("\(path): no DataMatrix or QR code found")
    }

    private static func locate(_ tool: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The tool's standard output when it exits 0 (nil otherwise: no barcode of its kind), at most
    /// `InputLimit.seal` bytes; killed after `timeLimit` seconds.
    private static func run(_ executable: String, _ arguments: [String], tool: String) throws -> [UInt8]? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(timeLimit), execute: watchdog)
        defer { watchdog.cancel() }
        var bytes: [UInt8] = []
        while let chunk = try output.fileHandleForReading.read(upToCount: 4096), !chunk.isEmpty {
            bytes += chunk
            guard bytes.count <= InputLimit.seal else {
                process.terminate()
                process.waitUntilExit()
                throw CommandFailure("\(tool) printed more than any seal holds")
            }
        }
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal {
            throw CommandFailure(
                "\(tool) did not finish reading the picture (stopped after \(timeLimit) s or at "
                    + "\(memoryLimit >> 30) GB, or crashed)")
        }
        return process.terminationStatus == 0 ? bytes : nil
    }
}
