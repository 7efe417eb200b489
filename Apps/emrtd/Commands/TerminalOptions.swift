import ASN1
import CVCertificates
import Emrtd
import Foundation
import Secrets

/// The terminal group of every command that reads a chip itself (`read` and `dump`, `read --watch`,
/// `serve` for its sessions; not `relay`, whose chip the server reads): Terminal Authentication v1
/// as an inspection system, which opens DG3 (fingerprints) and DG4 (irises): `--terminal-certificates DIR|FILE`…
/// and the IS key, `--terminal-key FILE` or `--terminal-signer COMMAND`.
struct TerminalOptions {
    /// Nil when no terminal option was given.
    let configuration: TerminalConfiguration?

    static let usage = """
        --terminal-certificates DIR|FILE (repeatable) gives the inspection system's CV certificates
        (a FILE, or every *.cvcert and *.cvc file in DIR, as `emrtd cvc make-pki` writes them): after
        Chip Authentication the read presents the path from the chip's trust point (EF.CVCA) to the
        IS certificate, signs the chip's challenge, and reads DG3 and DG4 as the IS certificate
        allows. The IS key: --terminal-key FILE (PKCS#8 DER) or --terminal-signer COMMAND, run by
        /bin/sh for each signature: the bytes to sign on its standard input, the signature on its
        standard output (ECDSA as r‖s or DER ECDSA-Sig-Value; RSA as is), within 10 s and 4 KB;
        exit status 0. A failed Terminal Authentication is a warning, not a failed read: DG3 and
        DG4 stay denied and "authenticationStatus.terminal" says why.
        """

    static func read(_ arguments: inout ArgumentReader) throws -> TerminalOptions {
        let sources = try arguments.options("--terminal-certificates")
        let keyFile = try arguments.option("--terminal-key")
        let signerCommand = try arguments.option("--terminal-signer")
        guard !sources.isEmpty else {
            guard keyFile == nil, signerCommand == nil else {
                throw UsageError("--terminal-key and --terminal-signer go with --terminal-certificates DIR|FILE")
            }
            return TerminalOptions(configuration: nil)
        }
        guard keyFile == nil || signerCommand == nil else {
            throw UsageError("--terminal-key and --terminal-signer exclude each other")
        }
        guard keyFile != nil || signerCommand != nil else {
            throw UsageError(
                "--terminal-certificates needs the IS key: --terminal-key FILE or --terminal-signer COMMAND")
        }
        var certificates: [[UInt8]] = []
        for source in sources { certificates += try loadCertificates(source) }
        var key = try keyFile.map { try readFile($0, limit: maximumKeyFile, what: "a PKCS#8 key") } ?? []
        let secret = SecretBytes(consuming: &key)
        do throws(ReadError) {
            if keyFile != nil {
                return TerminalOptions(
                    configuration: try TerminalConfiguration(certificates: certificates, privateKey: secret))
            }
            // A signer that exits before reading its input must not end emrtd with SIGPIPE.
            signal(SIGPIPE, SIG_IGN)
            let signer = SignerProcess(
                command: signerCommand ?? "", signatureLength: try Self.ecdsaSignatureLength(certificates))
            return TerminalOptions(
                configuration: try TerminalConfiguration(certificates: certificates) { data in try signer.sign(data) })
        } catch {
            throw CommandFailure(error.reason)
        }
    }

    /// A PKCS#8 key: an RSA key of 16384 bits is under 10 KB.
    static let maximumKeyFile = 16 << 10

    /// FILE, or DIR's `*.cvcert` and `*.cvc` files in name order.
    static func loadCertificates(_ source: String) throws -> [[UInt8]] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory), isDirectory.boolValue else {
            return [try readFile(source, limit: InputLimit.cvCertificate, what: "a CV certificate")]
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: source).sorted().filter {
            $0.hasSuffix(".cvcert") || $0.hasSuffix(".cvc")
        }
        guard !names.isEmpty else { throw CommandFailure("\(source) holds no *.cvcert or *.cvc file") }
        return try names.map {
            try readFile("\(source)/\($0)", limit: InputLimit.cvCertificate, what: "a CV certificate")
        }
    }

    /// r‖s's length for an ECDSA IS key: twice the order's, from the certificate that carries the
    /// curve (the CVCA's); nil for RSA.
    static func ecdsaSignatureLength(_ certificates: [[UInt8]]) throws(ReadError) -> Int? {
        let parsed = certificates.compactMap { try? CVCertificate(encoded: $0) }
        guard parsed.contains(where: { $0.authorization.role == .terminal && $0.publicKey.algorithm.isECDSA }) else {
            return nil
        }
        for certificate in parsed {
            if case .ecdsa(_, let curve?) = certificate.publicKey.key {
                return 2 * curve.order.drop(while: { $0 == 0 }).count
            }
        }
        throw ReadError(
            .invalidArgument,
            "--terminal-signer with an ECDSA key needs the certificate that carries the curve (the CVCA's) among "
                + "--terminal-certificates, to know the signature's length")
    }
}

/// `--terminal-signer COMMAND`: one process per signature, the data on its standard input, the
/// signature read from its standard output within `timeout` and `maximumOutput` bytes; its
/// standard error passes through.
struct SignerProcess: Sendable {
    let command: String
    /// r‖s's length for ECDSA (a DER signature is converted to it); nil for RSA.
    let signatureLength: Int?
    var timeout = Duration.seconds(10)
    static let maximumOutput = 4096

    func sign(_ data: [UInt8]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        do { try process.run() } catch { throw CommandFailure("cannot start the signer '\(command)': \(error)") }
        try? input.fileHandleForWriting.write(contentsOf: Data(data))
        try? input.fileHandleForWriting.close()
        let produced: [UInt8]
        do {
            produced = try readOutput(output.fileHandleForReading.fileDescriptor)
        } catch {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            throw error
        }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let how = process.terminationReason == .exit ? "exited with status" : "was killed by signal"
            throw CommandFailure("the signer '\(command)' \(how) \(process.terminationStatus)")
        }
        guard !produced.isEmpty else { throw CommandFailure("the signer '\(command)' printed no signature") }
        return try signature(produced)
    }

    /// Standard output to its end, within `timeout` and `maximumOutput`.
    private func readOutput(_ descriptor: Int32) throws -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                throw CommandFailure("the signer '\(command)' gave no signature within \(timeout)")
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(
                clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0 && errno != EINTR {
                throw CommandFailure("the signer's output: \(String(cString: strerror(errno)))")
            }
            guard ready > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CommandFailure("the signer's output: \(String(cString: strerror(errno)))")
            }
            if count == 0 { return bytes }
            bytes += buffer.prefix(count)
            guard bytes.count <= Self.maximumOutput else {
                throw CommandFailure("the signer '\(command)' printed more than \(Self.maximumOutput) bytes")
            }
        }
    }

    /// ECDSA: r‖s as printed, or a DER ECDSA-Sig-Value turned into r‖s; RSA: as printed.
    func signature(_ bytes: [UInt8]) throws -> [UInt8] {
        guard let length = signatureLength, bytes.count != length else { return bytes }
        guard let sequence = try? ASN1Node.parse(bytes, rules: .der, maxDepth: 2), sequence.tag == ASN1Tag(0x30),
            sequence.children.count == 2, sequence.children.allSatisfy({ $0.tag == ASN1Tag(0x02) })
        else {
            throw CommandFailure(
                "the signer printed \(bytes.count) bytes: neither r‖s (\(length) bytes) nor a DER ECDSA signature")
        }
        var raw: [UInt8] = []
        for part in sequence.children {
            let value = part.content.drop(while: { $0 == 0 })
            guard value.count <= length / 2 else { throw CommandFailure("the signer's DER signature is too long") }
            raw += [UInt8](repeating: 0, count: length / 2 - value.count) + value
        }
        return raw
    }
}

extension CommandFailure: CustomStringConvertible {
    var description: String { message }
}
