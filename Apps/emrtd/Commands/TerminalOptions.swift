import ASN1
import CVCertificates
import Emrtd
import Foundation
import Secrets

/// The terminal group of every command that reads a chip itself (`read` and `dump`, `read --watch`,
/// `serve` for its sessions; not `relay`, whose chip the server reads): Terminal Authentication v1
/// as an inspection system, which opens DG3 (fingerprints) and DG4 (irises): `--terminal-certificates DIR|FILE`…
/// and the IS key, `--terminal-key FILE` or `--terminal-signer COMMAND`.
/// The options are taken first and the files loaded later (`configuration()`), so that a
/// stray argument is a usage error before any file is read.
struct TerminalOptions {
    /// `--terminal-certificates`, empty when no terminal option was given.
    let sources: [String]
    let keyFile: String?
    let signerCommand: String?

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
            return TerminalOptions(sources: [], keyFile: nil, signerCommand: nil)
        }
        guard keyFile == nil || signerCommand == nil else {
            throw UsageError("--terminal-key and --terminal-signer exclude each other")
        }
        guard keyFile != nil || signerCommand != nil else {
            throw UsageError(
                "--terminal-certificates needs the IS key: --terminal-key FILE or --terminal-signer COMMAND")
        }
        return TerminalOptions(sources: sources, keyFile: keyFile, signerCommand: signerCommand)
    }

    /// The certificates and the key (or the signer) loaded; nil when no terminal option was given.
    func configuration() throws -> TerminalConfiguration? {
        guard !sources.isEmpty else { return nil }
        var certificates: [[UInt8]] = []
        for source in sources { certificates += try Self.loadCertificates(source) }
        var key = try keyFile.map { try readFile($0, limit: Self.maximumKeyFile, what: "a PKCS#8 key") } ?? []
        let secret = SecretBytes(consuming: &key)
        do throws(ReadError) {
            if keyFile != nil {
                return try TerminalConfiguration(certificates: certificates, privateKey: secret)
            }
            // A signer that exits before reading its input must not end emrtd with SIGPIPE.
            signal(SIGPIPE, SIG_IGN)
            let signer = SignerProcess(
                command: signerCommand ?? "", signatureLength: try Self.ecdsaSignatureLength(certificates))
            return try TerminalConfiguration(certificates: certificates) { data in try signer.sign(data) }
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
        let deadline = ContinuousClock.now + timeout
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        guard pipe(&input) == 0 else { throw CommandFailure("cannot start the signer: \(errorText())") }
        guard pipe(&output) == 0 else {
            close(input[0])
            close(input[1])
            throw CommandFailure("cannot start the signer: \(errorText())")
        }
        for descriptor in [input[1], output[0]] { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        // Its own process group, so that every process it starts goes with it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let words: [String] = ["/bin/sh", "-c", command]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ)
        close(input[0])
        close(output[1])
        defer { close(output[0]) }
        guard spawned == 0 else {
            close(input[1])
            throw CommandFailure("cannot start the signer '\(command)': \(String(cString: strerror(spawned)))")
        }
        _ = data.withUnsafeBytes { write(input[1], $0.baseAddress, $0.count) }
        close(input[1])
        let produced: [UInt8]
        let status: Int32
        do {
            produced = try readOutput(output[0], until: deadline)
            status = try exitStatus(pid, until: deadline)
        } catch {
            kill(-pid, SIGKILL)
            while waitpid(pid, nil, 0) < 0 && errno == EINTR {}
            throw error
        }
        guard status == 0 else { throw CommandFailure("the signer '\(command)' \(Self.describe(status))") }
        guard !produced.isEmpty else { throw CommandFailure("the signer '\(command)' printed no signature") }
        return try signature(produced)
    }

    /// The signer's wait status once it ends, polled until `deadline`.
    private func exitStatus(_ pid: pid_t, until deadline: ContinuousClock.Instant) throws -> Int32 {
        var status: Int32 = 0
        while true {
            let ended = waitpid(pid, &status, WNOHANG)
            if ended == pid { return status }
            guard ended == 0 || errno == EINTR else { throw CommandFailure("the signer: \(errorText())") }
            guard ContinuousClock.now < deadline else {
                throw CommandFailure("the signer '\(command)' did not end within \(timeout)")
            }
            usleep(10_000)
        }
    }

    /// A wait status in words.
    private static func describe(_ status: Int32) -> String {
        let signal = status & 0x7F
        return signal == 0 ? "exited with status \((status >> 8) & 0xFF)" : "was killed by signal \(signal)"
    }

    /// Standard output to its end, within `deadline` and `maximumOutput`.
    private func readOutput(_ descriptor: Int32, until deadline: ContinuousClock.Instant) throws -> [UInt8] {
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
                throw CommandFailure("the signer's output: \(errorText())")
            }
            guard ready > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CommandFailure("the signer's output: \(errorText())")
            }
            if count == 0 { return bytes }
            bytes += buffer.prefix(count)
            guard bytes.count <= Self.maximumOutput else {
                throw CommandFailure("the signer '\(command)' printed more than \(Self.maximumOutput) bytes")
            }
        }
    }

    private func errorText() -> String { String(cString: strerror(errno)) }

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
