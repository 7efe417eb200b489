import ASN1
import CVCertificates
import CryptoPrimitives
import SecureMessaging
import Transport

/// Terminal Authentication v1 (TR-03110 v1.11 B.3, ICAO 9303-11 §7.1): an inspection system proves
/// to the chip, after Chip Authentication, that a state's CVCA authorised it, and so opens DG3 and
/// DG4. For each certificate from the chip's trust point down to the terminal's: MSE:Set DST
/// (`0C 22 81 B6`, 83 its CAR) and PSO:Verify Certificate (`0C 2A 00 BE`, its body and signature);
/// then MSE:Set AT (`0C 22 81 A4`, 83 the terminal's CHR), GET CHALLENGE (8 bytes r_PICC) and
/// EXTERNAL AUTHENTICATE with the terminal's signature over ID_PICC ‖ r_PICC ‖ Comp(PK_PCD).
public enum TerminalAuthenticationV1 {
    /// Signs the bytes Terminal Authentication gives it with the terminal's private key, by the
    /// algorithm of the terminal's certificate (ECDSA plain r‖s): a key in memory, an HSM, a remote
    /// signing service.
    public typealias Signer = @Sendable (_ data: [UInt8]) throws -> [UInt8]

    /// A signer over a private key held here (wiped when the last copy is released).
    public static func signer(key: CVCPrivateKey, algorithm: TerminalAuthenticationAlgorithm) -> Signer {
        { data in try key.sign(data, algorithm: algorithm) }
    }

    /// The certificates to present, top down: from one whose CAR is a trust point the chip names
    /// (EF.CVCA's CARs) along CAR = CHR links to a terminal's certificate.
    /// - Throws: `.unusableKey` when no chain from those trust points reaches a terminal.
    public static func path(from certificates: [CVCertificate], trustPoints: [String]) throws(ChipAuthenticationError)
        -> [CVCertificate]
    {
        for trustPoint in trustPoints {
            var path: [CVCertificate] = []
            var issuer = trustPoint
            while path.count < certificates.count,
                let next = certificates.first(where: { $0.authorityReference == issuer && !$0.isSelfSigned })
            {
                path.append(next)
                if next.authorization.role == .terminal { return path }
                issuer = next.holderReference
            }
        }
        throw ChipAuthenticationError(
            .unusableKey,
            "no terminal certificate chains to the chip's trust point \(trustPoints.joined(separator: " or "))")
    }

    /// The trust points EF.CVCA names: one or two CARs (42), then zero padding.
    public static func trustPoints(cvcaFile: [UInt8]) throws(ChipAuthenticationError) -> [String] {
        let significant = cvcaFile.prefix { $0 != 0 }
        guard let objects = try? ASN1Node.parseAll(significant, rules: .ber, maxDepth: 1), !objects.isEmpty,
            objects.count <= 2, objects.allSatisfy({ $0.tag == ASN1Tag(0x42) && (1...16).contains($0.content.count) })
        else { throw ChipAuthenticationError(.protocolViolation, "EF.CVCA is not one or two CARs (42)") }
        return objects.map { String(decoding: $0.content, as: UTF8.self) }
    }

    /// EF.CVCA's trust points, read over `channel`: SELECT by its file identifier (011C unless
    /// DG14's TerminalAuthenticationInfo names another) and one READ BINARY of its 36 bytes.
    /// - Throws: `.refused` when the chip has no EF.CVCA or refuses it (the status word attached);
    ///   `.protocolViolation` for a file that is not one or two CARs.
    public static func readTrustPoints(fileIdentifier: [UInt8]? = nil, over channel: any CommandChannel)
        throws(ChipAuthenticationError) -> [String]
    {
        let identifier = fileIdentifier ?? [0x01, 0x1C]
        guard identifier.count == 2 else {
            throw ChipAuthenticationError(
                .protocolViolation, "DG14 names EF.CVCA by \(identifier.count) bytes, not a file identifier")
        }
        try send(CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: identifier), over: channel, step: "SELECT EF.CVCA")
        let answer = try ChipCommand.exchange(
            CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 36), over: channel, step: "READ BINARY of EF.CVCA")
        guard answer.statusWord.isSuccess || answer.statusWord == .endOfFileReached else {
            throw ChipAuthenticationError(
                .refused, "READ BINARY of EF.CVCA: the chip answered \(answer.statusWord)",
                statusWord: answer.statusWord)
        }
        return try trustPoints(cvcaFile: answer.data)
    }

    /// Comp(), 9303-11's compression of an ephemeral public key: an EC point's x coordinate (of
    /// 04‖x‖y), SHA-1 of a DH value. Comp(PK_PCD) of Chip Authentication, and ID_PICC after PACE.
    public static func compressed(_ encoded: [UInt8], isPoint: Bool) -> [UInt8] {
        isPoint ? Array(encoded.dropFirst().prefix((encoded.count - 1) / 2)) : HashAlgorithm.sha1.hash(encoded)
    }

    /// Runs Terminal Authentication over `channel` (re-keyed by Chip Authentication, whose outcome
    /// gives Comp(PK_PCD)). `documentIdentifier` is ID_PICC (9303-11 §7.1.2, TR-03110-3 B.11.1):
    /// after PACE Comp(PK_PICC), the chip's ephemeral PACE key compressed (`compressed`); after
    /// BAC the document number and its check digit as the MRZ prints them. Returns the terminal's
    /// certificate.
    ///
    /// - Throws: `.refused` naming the certificate the chip refused (its status word attached);
    ///   `.verificationFailed` when the chip refuses the signature; `.internalFailure` when the
    ///   signer fails; `.secureMessaging`, `.transport`, `.protocolViolation` as Chip Authentication.
    public static func run(
        certificates: [CVCertificate], documentIdentifier: [UInt8], chipAuthentication: ChipAuthenticationV1.Outcome,
        signer: Signer, over channel: any CommandChannel, log: (String) -> Void = { _ in }
    ) throws(ChipAuthenticationError) -> CVCertificate {
        guard let terminal = certificates.last, terminal.authorization.role == .terminal else {
            throw ChipAuthenticationError(.unusableKey, "the last certificate is not a terminal's")
        }
        for certificate in certificates {
            let name = "certificate \(certificate.holderReference)"
            try send(
                CommandAPDU(ins: 0x22, p1: 0x81, p2: 0xB6, data: reference(certificate.authorityReference)),
                over: channel, step: "MSE:Set DST for \(name)")
            try send(
                CommandAPDU(ins: 0x2A, p1: 0x00, p2: 0xBE, data: certificate.content),
                over: channel, step: "PSO:Verify Certificate of \(name)")
            log("Terminal Authentication: the chip accepted \(name)")
        }
        try send(
            CommandAPDU(ins: 0x22, p1: 0x81, p2: 0xA4, data: reference(terminal.holderReference)),
            over: channel, step: "MSE:Set AT for \(terminal.holderReference)")
        let challenge = try send(
            CommandAPDU(ins: 0x84, p1: 0x00, p2: 0x00, expectedLength: 8), over: channel, step: "GET CHALLENGE")
        guard challenge.count == 8 else {
            throw ChipAuthenticationError(.protocolViolation, "GET CHALLENGE gave \(challenge.count) bytes, not 8")
        }
        let signature: [UInt8]
        do {
            signature = try signer(documentIdentifier + challenge + chipAuthentication.compressedTerminalKey)
        } catch {
            throw ChipAuthenticationError(.internalFailure, "the terminal's signer failed: \(error)")
        }
        let answer = try ChipCommand.exchange(
            CommandAPDU(ins: 0x82, p1: 0x00, p2: 0x00, data: signature), over: channel, step: "EXTERNAL AUTHENTICATE")
        guard answer.statusWord.isSuccess else {
            throw ChipAuthenticationError(
                .verificationFailed,
                "the chip refused \(terminal.holderReference)'s signature (EXTERNAL AUTHENTICATE \(answer.statusWord))",
                statusWord: answer.statusWord)
        }
        log("Terminal Authentication: \(terminal.holderReference) authenticated, \(terminal.authorization)")
        return terminal
    }

    private static func reference(_ name: String) -> [UInt8] { DER.tlv(ASN1Tag(0x83), Array(name.utf8)) }

    @discardableResult
    private static func send(_ command: CommandAPDU, over channel: any CommandChannel, step: String)
        throws(ChipAuthenticationError) -> [UInt8]
    {
        let answer = try ChipCommand.exchange(command, over: channel, step: step)
        guard answer.statusWord.isSuccess else {
            throw ChipAuthenticationError(
                .refused, "\(step): the chip answered \(answer.statusWord)", statusWord: answer.statusWord)
        }
        return answer.data
    }
}
