import ASN1
import CVCertificates
import Files
import Foundation
import ICAO
import Secrets

/// `emrtd cvc`: card-verifiable certificates of Extended Access Control: a test PKI (CVCA, DV,
/// inspection system) for the simulator and for trying Terminal Authentication, a certificate
/// printed, a chain checked as a chip checks it.
enum CVCCommand: Command {
    static let name = "cvc"
    static let summary = "card-verifiable certificates (EAC): make a test PKI, print one, check a chain"
    static let usage = """
        usage: emrtd cvc make-pki DIR [--algorithm ALG] [--curve ID | --rsa-bits N] [--country CC]
                                      [--rights dg3,dg4|none] [--dv-rights dg3,dg4|none]
                                      [--from YYYY-MM-DD] [--until YYYY-MM-DD] [--terminal-until YYYY-MM-DD]
               emrtd cvc print FILE...
               emrtd cvc check --trust-point FILE [--at YYYY-MM-DD] FILE...

        make-pki writes DIR/cvca.cvcert, dv.cvcert and is.cvcert (a self-signed CVCA, a domestic
        DV, an inspection system) and each one's key, cvca.pkcs8, dv.pkcs8, is.pkcs8 (PKCS#8 DER,
        mode 0600; OpenPACE's cvc-create reads them). ALG is one of
        \(TerminalAuthenticationAlgorithm.allCases.map(\.name).joined(separator: ", "))
        (default ecdsa-sha256); --curve a standardized domain parameter ID, 8-18 (default 13,
        brainpoolP256r1); --rsa-bits 1024-4096 (default 2048). The CHRs are CC + CVCA/DV/IS +
        00001 (CC default UT). --rights and --dv-rights: the DG3 (fingerprints) and DG4 (irises)
        read rights (default dg3,dg4). Dates: --from (default today) to --until (default a year
        later), the IS to --terminal-until (default --until).
        print shows each certificate's fields. check verifies FILE... top down (link CVCAs, a DV,
        the terminal) from the trust point's certificate, each valid on --at when given, and
        prints the terminal's effective rights.
        Exit status: 0 done, 1 a file that cannot be read or written or is no CV certificate,
        2 wrong command line, 3 a chain that does not verify (the message names the certificate
        and the field).
        """

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        let pkiOptions = [
            "--algorithm", "--curve", "--rsa-bits", "--country", "--rights", "--dv-rights", "--from", "--until",
            "--terminal-until",
        ]
        var values: [String: String] = [:]
        for name in pkiOptions + ["--trust-point", "--at"] { values[name] = try arguments.option(name) }
        var words = try arguments.positionals()
        guard let action = words.first else { throw UsageError("make-pki, print or check?") }
        words.removeFirst()
        let allowed: Set<String> =
            switch action {
            case "make-pki": Set(pkiOptions)
            case "check": ["--trust-point", "--at"]
            case "print": []
            default: throw UsageError("unknown action \(action): make-pki, print or check")
            }
        if let stray = values.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw UsageError("\(stray) does not go with \(action)")
        }
        switch action {
        case "make-pki":
            if let stray = words.dropFirst().first { throw UsageError("unexpected argument '\(stray)'") }
            guard words.count == 1 else { throw UsageError("make-pki takes one DIR") }
            return try makePKI(in: words[0], values)
        case "print":
            guard !words.isEmpty else { throw UsageError("print takes FILE...") }
            for (index, file) in words.enumerated() {
                if index > 0 { print("") }
                print("\(file):\n\(try load(file))")
            }
            return 0
        default:
            guard let trustPoint = values["--trust-point"] else { throw UsageError("check needs --trust-point FILE") }
            guard !words.isEmpty else { throw UsageError("check takes the chain's FILE... below the trust point") }
            let date = try values["--at"].map { try parseDate($0, "--at") }
            let anchor = try load(trustPoint)
            let certificates = try words.map(load)
            do throws(CVCError) {
                let chain = try CVCChain(trustPoint: anchor, certificates: certificates, at: date)
                print("chain verified: \((([anchor] + certificates).map(\.holderReference)).joined(separator: " → "))")
                print("effective authorization: \(chain.effectiveAuthorization)")
                return 0
            } catch {
                printError("chain not verified: \(error.reason)")
                return 3
            }
        }
    }

    static func load(_ path: String) throws -> CVCertificate {
        let bytes = try readFile(path, limit: InputLimit.cvCertificate, what: "a CV certificate")
        do throws(CVCError) {
            return try CVCertificate(encoded: bytes)
        } catch {
            throw CommandFailure("\(path): \(error.reason)")
        }
    }

    static func parseDate(_ text: String, _ option: String) throws(UsageError) -> CVCDate {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).compactMap { part in
            part.utf8.allSatisfy { (0x30...0x39).contains($0) } ? Int(part) : nil
        }
        guard parts.count == 3, text.count == 10, let date = CVCDate(year: parts[0], month: parts[1], day: parts[2])
        else { throw UsageError("\(option) takes a date YYYY-MM-DD between 2000 and 2099") }
        return date
    }

    static func parseRights(_ text: String?, _ option: String) throws(UsageError)
        -> CertificateHolderAuthorization.InspectionRights
    {
        guard let text else { return [.readDG3, .readDG4] }
        if text == "none" { return [] }
        guard !text.isEmpty else { throw UsageError("\(option) takes dg3, dg4, both (dg3,dg4) or none") }
        var rights: CertificateHolderAuthorization.InspectionRights = []
        for word in text.split(separator: ",") {
            switch word.lowercased() {
            case "dg3": rights.insert(.readDG3)
            case "dg4": rights.insert(.readDG4)
            default: throw UsageError("\(option) takes dg3, dg4, both (dg3,dg4) or none")
            }
        }
        return rights
    }

    static func makePKI(in directory: String, _ values: [String: String]) throws -> Int32 {
        let algorithmName = values["--algorithm"] ?? "ecdsa-sha256"
        guard let algorithm = TerminalAuthenticationAlgorithm(name: algorithmName) else {
            throw UsageError(
                "--algorithm: \(algorithmName) is none of \(TerminalAuthenticationAlgorithm.allCases.map(\.name).joined(separator: ", "))"
            )
        }
        let country = values["--country"] ?? "UT"
        guard country.count == 2, country.allSatisfy({ $0.isASCII && $0.isLetter && $0.isUppercase }) else {
            throw UsageError("--country takes two capital letters")
        }
        let rights = try parseRights(values["--rights"], "--rights")
        let dvRights = try parseRights(values["--dv-rights"], "--dv-rights")
        let from = try values["--from"].map { try parseDate($0, "--from") } ?? CVCDate(UTCDateTime(Date()))
        guard let from else { throw UsageError("today is outside 2000-2099: give --from") }
        let until =
            try values["--until"].map { try parseDate($0, "--until") }
            ?? CVCDate(year: from.year + 1, month: from.month, day: min(from.day, 28))
        guard let until, from <= until else { throw UsageError("--until must not be before --from") }
        let terminalUntil = try values["--terminal-until"].map { try parseDate($0, "--terminal-until") } ?? until
        // A terminal certificate valid before its chain is one `cvc check` rejects.
        guard from <= terminalUntil, terminalUntil <= until else {
            throw UsageError("--terminal-until must be between --from and --until")
        }
        func newKey() throws -> CVCPrivateKey {
            if algorithm.isECDSA {
                guard values["--rsa-bits"] == nil else { throw UsageError("--rsa-bits goes with an RSA --algorithm") }
                let id =
                    try values["--curve"].map { text in
                        guard let id = Int(text), (8...18).contains(id) else {
                            throw UsageError("--curve takes an ID 8-18")
                        }
                        return id
                    } ?? 13
                guard let curve = StandardizedDomainParameters(id: id)?.curve else {
                    throw UsageError("--curve \(id) is no curve")
                }
                return try CVCPrivateKey.generateECDSA(on: curve)
            }
            guard values["--curve"] == nil else { throw UsageError("--curve goes with an ECDSA --algorithm") }
            let bits =
                try values["--rsa-bits"].map { text in
                    guard let bits = Int(text), (1024...4096).contains(bits) else {
                        throw UsageError("--rsa-bits takes 1024 to 4096")
                    }
                    return bits
                } ?? 2048
            return try CVCPrivateKey.generateRSA(bits: bits)
        }
        let (cvcaKey, dvKey, terminalKey) = (try newKey(), try newKey(), try newKey())
        let (cvcaName, dvName, terminalName) = (country + "CVCA00001", country + "DV00001", country + "IS00001")
        let issued: [(String, CVCertificate, CVCPrivateKey)]
        do throws(CVCError) {
            let cvca = try CVCertificate.issue(
                authorityReference: cvcaName, publicKey: cvcaKey.publicKey(algorithm: algorithm, includingCurve: true),
                holderReference: cvcaName, authorization: .init(inspectionSystem: .cvca, rights: [.readDG3, .readDG4]),
                effectiveDate: from, expirationDate: until, signer: cvcaKey, signingAlgorithm: algorithm)
            let dv = try CVCertificate.issue(
                authorityReference: cvcaName, publicKey: dvKey.publicKey(algorithm: algorithm, includingCurve: false),
                holderReference: dvName,
                authorization: .init(inspectionSystem: .domesticDocumentVerifier, rights: dvRights),
                effectiveDate: from, expirationDate: until, signer: cvcaKey, signingAlgorithm: algorithm)
            let terminal = try CVCertificate.issue(
                authorityReference: dvName,
                publicKey: terminalKey.publicKey(algorithm: algorithm, includingCurve: false),
                holderReference: terminalName,
                authorization: .init(inspectionSystem: .terminal, rights: rights), effectiveDate: from,
                expirationDate: terminalUntil, signer: dvKey, signingAlgorithm: algorithm)
            issued = [("cvca", cvca, cvcaKey), ("dv", dv, dvKey), ("is", terminal, terminalKey)]
        } catch {
            throw CommandFailure(error.reason)
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("cannot create \(directory): \(fileSystemWords(error))")
        }
        for (name, certificate, key) in issued {
            try write(certificate.encoded, to: "\(directory)/\(name).cvcert", mode: 0o644)
            var keyBytes = try key.pkcs8().withUnsafeBytes { Array($0) }
            defer { keyBytes.wipe() }
            try write(keyBytes, to: "\(directory)/\(name).pkcs8", mode: 0o600)
        }
        print(
            "test PKI in \(directory): \(cvcaName) → \(dvName) → \(terminalName), \(algorithm); \(issued[2].1.authorization)"
        )
        return 0
    }

    static func write(_ bytes: [UInt8], to path: String, mode: mode_t) throws(CommandFailure) {
        do throws(FilesError) {
            try AtomicFile.write(bytes, to: path, mode: mode)
        } catch {
            throw CommandFailure(error.reason)
        }
    }
}
