import CVCertificates
import ChipAuthentication
import JSON
import Secrets

/// An inspection system's credentials for Terminal Authentication v1 (Extended Access Control),
/// which opens DG3 (fingerprints) and DG4 (irises): its CV certificates and a way to sign with
/// its key, which may stay in an HSM or a remote signing service (`signer`).
public struct TerminalConfiguration: Sendable {
    /// CV certificates in any order; the read presents the path from the trust point EF.CVCA
    /// names (current or previous) down to an inspection system's certificate (link CVCAs, a DV,
    /// the IS), and ignores the others.
    public let certificates: [CVCertificate]
    /// Signs ID_PICC ‖ r_PICC ‖ Comp(PK_PCD) by the IS certificate's algorithm (ECDSA: r‖s).
    public let signer: TerminalAuthenticationV1.Signer

    /// - Parameters:
    ///   - certificates: each a CV certificate (7F21, DER).
    ///   - signer: signs the chip's challenge with the inspection system's key.
    /// - Throws: `invalidArgument` naming the entry that is no CV certificate, or when none is an
    ///   inspection system's.
    public init(certificates: [[UInt8]], signer: @escaping TerminalAuthenticationV1.Signer) throws(ReadError) {
        self.certificates = try Self.parse(certificates)
        self.signer = signer
    }

    /// With the IS key in memory (PKCS#8 DER, wiped when the last copy is released): it signs by
    /// the algorithm of the IS certificate whose public key it matches.
    /// - Throws: `invalidArgument` for a key that does not parse or matches no IS certificate.
    public init(certificates: [[UInt8]], privateKey: SecretBytes) throws(ReadError) {
        let key: CVCPrivateKey
        do throws(CVCError) {
            key = try CVCPrivateKey(pkcs8: privateKey)
        } catch {
            throw ReadError(.invalidArgument, "the terminal key: \(error.reason)")
        }
        self.certificates = try Self.parse(certificates)
        let terminals = self.certificates.filter { $0.authorization.role == .terminal }
        guard let terminal = terminals.first(where: { Self.key(key, matches: $0.publicKey) }) else {
            throw ReadError(
                .invalidArgument,
                "the terminal key is not the key of \(terminals.map(\.holderReference).joined(separator: " or "))")
        }
        signer = TerminalAuthenticationV1.signer(key: key, algorithm: terminal.publicKey.algorithm)
    }

    private static func parse(_ certificates: [[UInt8]]) throws(ReadError) -> [CVCertificate] {
        var parsed: [CVCertificate] = []
        for (index, bytes) in certificates.enumerated() {
            do throws(CVCError) {
                parsed.append(try CVCertificate(encoded: bytes))
            } catch {
                throw ReadError(
                    .invalidArgument, "terminal certificate \(index + 1) is no CV certificate: \(error.reason)")
            }
        }
        guard parsed.contains(where: { $0.authorization.role == .terminal }) else {
            throw ReadError(.invalidArgument, "none of the terminal certificates is an inspection system's")
        }
        return parsed
    }

    /// The private key's public half is `publicKey` (the curve, which a DV or IS certificate omits,
    /// aside).
    private static func key(_ key: CVCPrivateKey, matches publicKey: CVCPublicKey) -> Bool {
        guard let own = try? key.publicKey(algorithm: publicKey.algorithm, includingCurve: false) else { return false }
        switch (own.key, publicKey.key) {
        case (.ecdsa(let point, _), .ecdsa(let other, _)): return point == other
        case (.rsa(let modulus, _), .rsa(let other, _)): return modulus == other
        default: return false
        }
    }
}

/// Whether Terminal Authentication ran, and why not: what DG3 and DG4 depend on. A failure is
/// not a read failure (as JMRTD has it): it is a warning, and DG3 and DG4 stay denied.
public struct TerminalAuthenticationStatus: Sendable, Hashable {
    public enum Status: String, Sendable, Hashable, JSONEnum {
        /// The chip accepted the chain and the signature: DG3/DG4 open as the IS's CHAT grants.
        case succeeded
        /// The chip refused a certificate or the signature, or the signer failed.
        case failed
        /// Configured, but the read could not run it (no Chip Authentication, no EF.CVCA, no
        /// chain to the chip's trust point, no DG3 or DG4 listed).
        case notRun
        /// No terminal certificates and key were given (`ReaderConfig.terminal`).
        case notConfigured
    }

    public var status: Status
    /// Why, in one sentence (the refused certificate's CHR and the status word when it failed).
    public var reason: String
    /// The certificates presented, top down, by CHR; empty when no path was chosen.
    public var certificates: [String]
    /// The chip's status word that refused a step, nil otherwise.
    public var statusWord: String?

    public init(_ status: Status, _ reason: String, certificates: [String] = [], statusWord: String? = nil) {
        self.status = status
        self.reason = reason
        self.certificates = certificates
        self.statusWord = statusWord
    }

    public static let notConfigured = TerminalAuthenticationStatus(
        .notConfigured, "no terminal certificates and key were given, so DG3 and DG4 stay closed")
}

extension TerminalAuthenticationStatus: JSONRepresentable {
    public var json: JSONValue {
        [
            "status": status.json,
            "reason": .string(reason),
            "certificates": .array(certificates.map(JSONValue.string)),
            "statusWord": .optional(statusWord),
        ]
    }
}
