import AccessControl
import ChipAuthentication
import Foundation
import ICAO

/// What a read proved beyond the files, kept as plain values so that a back end or an auditor
/// can check the chip again offline: how the chip was opened and each chip protocol's transcript.
/// A dump holds it as `evidence.json` (schema: `Packages/Output/README.md`); bytes are base64.
public struct AcquisitionEvidence: Sendable, Hashable, Codable {
    /// The schema version this reader writes; a reader refuses a newer one.
    public static let currentVersion = 1

    public var version: Int
    public var access: Access
    public var chipAuthenticationMapping: ChipAuthenticationMappingProof?
    public var chipAuthentication: ChipAuthenticationProof?
    public var activeAuthentication: ActiveAuthenticationProof?
    public var terminalAuthentication: TerminalAuthenticationProof?

    public init(
        access: Access, chipAuthenticationMapping: ChipAuthenticationMappingProof? = nil,
        chipAuthentication: ChipAuthenticationProof? = nil, activeAuthentication: ActiveAuthenticationProof? = nil,
        terminalAuthentication: TerminalAuthenticationProof? = nil
    ) {
        version = Self.currentVersion
        self.access = access
        self.chipAuthenticationMapping = chipAuthenticationMapping
        self.chipAuthentication = chipAuthentication
        self.activeAuthentication = activeAuthentication
        self.terminalAuthentication = terminalAuthentication
    }

    /// The access protocol that opened the chip.
    public struct Access: Sendable, Hashable, Codable {
        /// `bac` or `pace`.
        public var `protocol`: String
        /// The PACE run; nil after BAC.
        public var pace: PACE?
    }

    /// The PACE run as MSE:Set AT named it.
    public struct PACE: Sendable, Hashable, Codable {
        /// The PACE protocol's object identifier (`0.4.0.127.0.7.2.2.4.…`).
        public var protocolIdentifier: String
        /// `genericMapping`, `integratedMapping` or `chipAuthenticationMapping`.
        public var mapping: String
        /// `dh` or `ecdh`.
        public var keyAgreement: String
        /// `tripleDES`, `aes128`, `aes192` or `aes256`.
        public var cipher: String
        public var parameterId: Int?
        /// `mrz` or `can`.
        public var password: String
        /// PK_PICC, the chip's ephemeral key of the key agreement, as it sent it.
        public var chipEphemeralPublicKey: Data
    }

    /// PACE-CAM's proof (9303-11 §4.4.3.5.1): the chip is genuine when PK_Map,IC = KA(CA_IC, PK_IC)
    /// for its static key PK_IC.
    public struct ChipAuthenticationMappingProof: Sendable, Hashable, Codable {
        /// PK_Map,IC, the chip's ephemeral mapping key.
        public var chipMappingPublicKey: Data
        /// CA_IC, decrypted from the chip's last GENERAL AUTHENTICATE answer.
        public var authenticationData: Data
        /// The SubjectPublicKeyInfo (DER) the proof verified against; nil when none did.
        public var checkedAgainst: Data?
        /// Where that key came from: `cardSecurity` or `dataGroup14`.
        public var keySource: String?
    }

    /// Chip Authentication v1: what the terminal sent; the chip's proof is that it answered under
    /// the keys agreed, which whoever holds the terminal's ephemeral private key could also forge.
    public struct ChipAuthenticationProof: Sendable, Hashable, Codable {
        /// The protocol's object identifier (`0.4.0.127.0.7.2.2.3.…`).
        public var protocolIdentifier: String
        public var keyId: Int?
        /// Comp(PK_PCD): the terminal's ephemeral public key, compressed (an EC point's x, SHA-1
        /// of a DH value).
        public var terminalEphemeralPublicKey: Data
        /// The first answer under the new keys verified.
        public var confirmed: Bool
    }

    /// Active Authentication: the chip's signature over the challenge with DG15's key.
    public struct ActiveAuthenticationProof: Sendable, Hashable, Codable {
        public var challenge: Data
        public var signature: Data
        /// The scheme that verified ("RSA ISO/IEC 9796-2 scheme 1, SHA-1, implicit trailer BC",
        /// "ECDSA with SHA-256"); nil when the signature did not verify.
        public var algorithm: String?
    }

    /// Terminal Authentication v1: the certificates presented and how the chip took them.
    public struct TerminalAuthenticationProof: Sendable, Hashable, Codable {
        /// The holder references of the path presented, trust point side first.
        public var certificates: [String]
        /// `succeeded`, `failed` or `notRun`.
        public var outcome: String
        public var reason: String
    }
}

extension AcquisitionEvidence.ChipAuthenticationProof {
    /// What the terminal sent in a run, and whether the chip's next answer confirmed it.
    init(_ outcome: ChipAuthenticationV1.Outcome, confirmed: Bool) {
        self.init(
            protocolIdentifier: "\(outcome.offer.chipAuthenticationProtocol.identifier)", keyId: outcome.offer.keyId,
            terminalEphemeralPublicKey: Data(outcome.compressedTerminalKey), confirmed: confirmed)
    }
}

extension AcquisitionEvidence.Access {
    /// The access as the read established it.
    init(_ access: EstablishedAccess) {
        guard let pace = access.paceResult else {
            self.init(protocol: AccessControlProtocol.bac.rawValue, pace: nil)
            return
        }
        self.init(
            protocol: AccessControlProtocol.pace.rawValue,
            pace: AcquisitionEvidence.PACE(
                protocolIdentifier: "\(pace.paceProtocol.identifier)", mapping: pace.paceProtocol.mapping.rawValue,
                keyAgreement: pace.paceProtocol.keyAgreement.rawValue, cipher: pace.paceProtocol.cipher.rawValue,
                parameterId: pace.parameterId,
                password: pace.password == .can ? "can" : "mrz",
                chipEphemeralPublicKey: Data(pace.chipEphemeralPublicKey)
            ))
    }

    /// The access a dump's evidence names, as the assembly reports it; nil when the evidence
    /// names a protocol this reader does not know.
    var established: EstablishedAccess? {
        guard let pace else { return `protocol` == AccessControlProtocol.bac.rawValue ? .bac : nil }
        guard let mapping = PACEMapping(rawValue: pace.mapping),
            let keyAgreement = KeyAgreement(rawValue: pace.keyAgreement),
            let cipher = BlockCipher(rawValue: pace.cipher),
            let paceProtocol = PACEProtocol(mapping: mapping, keyAgreement: keyAgreement, cipher: cipher)
        else { return nil }
        return .pace(
            PACEResult(
                paceProtocol: paceProtocol, parameterId: pace.parameterId,
                password: pace.password == "can" ? .can : .mrz,
                chipEphemeralPublicKey: [UInt8](pace.chipEphemeralPublicKey)))
    }
}
