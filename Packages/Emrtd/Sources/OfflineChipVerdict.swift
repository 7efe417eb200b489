import CMS
import ChipAuthentication
import Foundation
import LDS

/// The chip verdict of a dump, judged again offline from its `evidence.json` (`AcquisitionEvidence`)
/// in the shape of `authenticationStatus.chip`, by the chip verdict's own rules (`ChipVerdict`):
///
/// - Active Authentication: the stored signature re-verified over the stored challenge with DG15's
///   key; with `challenge`, the stored challenge must be the caller's (another is `denied`: a
///   recorded answer cannot be replayed for a challenge the caller chose).
/// - PACE-CAM: the stored proof re-verified against EF.CardSecurity's key (else DG14's).
/// - Chip Authentication: performed, not provable offline (reported `notRun` with why).
/// - A key counts only when its file is authenticated (`data`), and EF.CardSecurity only when its
///   signature chains to a trusted CSCA, as online.
/// - A DG14 or DG15 EF.SOD hashes and the dump lacks is withheld (`WithheldKeyFileStep`), as
///   online: `denied`, with or without `evidence.json`.
public enum OfflineChipVerdict {
    public static func decide(
        evidence: AcquisitionEvidence?, files: LdsMasterFile, data: DataAuthenticationStatus,
        trustStore: TrustStore, at checkTime: Date, challenge: [UInt8]? = nil
    ) -> ChipAuthenticationStatus {
        let withheld = WithheldKeyFileStep.reasons(
            missing: [LDSFileKind.dg14, .dg15].compactMap { kind in
                guard files[kind] == nil, let number = kind.dataGroupNumber else { return nil }
                return (number, "the dump does not hold it (no \(kind.dumpFileName))")
            }, data: data)
        guard let evidence else {
            let bare = ChipEvidence(withheldKeyFiles: withheld)
            return WithheldKeyFileStep().decide(bare)
                ?? ChipVerdict.status(
                    .notSupported, nil, bare,
                    reason:
                        "the dump holds no evidence.json (an older dump, or another tool's): nothing proves the chip")
        }
        var chip = ChipEvidence(
            chipAuthenticationMapping: mapping(
                evidence, files: files, data: data, trustStore: trustStore, at: checkTime),
            chipAuthentication: chipAuthentication(evidence),
            activeAuthentication: activeAuthentication(evidence, files: files, data: data, challenge: challenge),
            activeAuthenticationResponse: evidence.activeAuthentication.map(\.signature), withheldKeyFiles: withheld)
        if challenge != nil, evidence.activeAuthentication == nil {
            chip.activeAuthentication = .denied(
                "the dump holds no Active Authentication, so nothing answers the given challenge")
        }
        return ChipVerdict.decide(chip)
    }

    /// A protocol's result is worth what its key file is: `authenticated` only over a file
    /// Passive Authentication authenticated, `unproven` over one it did not.
    private static func keyed(_ number: Int, data: DataAuthenticationStatus, name: String) -> ChipProtocolOutcome {
        let hash = data.dataGroupHashes.first { Int($0.dataGroupNumber) == number }
        if hash?.status == .invalid {
            return .denied("\(name) verified with DG\(number)'s key, but DG\(number) does not match EF.SOD")
        }
        guard data.status == .authenticated, hash?.status == .valid else {
            return .unproven(
                "\(name) verified with DG\(number)'s key, but DG\(number) is not authenticated (data verdict "
                    + "\(data.status.rawValue)), so the key is not proved to be the issuer's")
        }
        return .authenticated
    }

    private static func activeAuthentication(
        _ evidence: AcquisitionEvidence, files: LdsMasterFile, data: DataAuthenticationStatus, challenge: [UInt8]?
    ) -> ChipProtocolOutcome {
        guard let proof = evidence.activeAuthentication else { return .notOffered }
        let stored = [UInt8](proof.challenge)
        if let challenge, challenge != stored {
            return .denied("the Active Authentication recorded answers another challenge than the one given")
        }
        guard let bytes = files[.dg15], let key = try? ActiveAuthenticationPublicKey(bytes) else {
            return .notRun("the dump holds no DG15 with a key to check the Active Authentication signature against")
        }
        let info = files[.dg14].flatMap { try? SecurityOptions($0, kind: .dg14) }?.activeAuthenticationInfo
        do throws(ChipAuthenticationError) {
            _ = try ActiveAuthentication.verify(
                signature: [UInt8](proof.signature), challenge: stored, publicKey: key.publicKey, info: info)
        } catch {
            return error.code == .unusableKey
                ? .notRun("DG15's key cannot be used: \(error.reason)")
                : .denied("the recorded Active Authentication signature does not verify: \(error.reason)")
        }
        return keyed(15, data: data, name: "Active Authentication")
    }

    private static func mapping(
        _ evidence: AcquisitionEvidence, files: LdsMasterFile, data: DataAuthenticationStatus, trustStore: TrustStore,
        at checkTime: Date
    ) -> ChipProtocolOutcome {
        guard let proof = evidence.chipAuthenticationMapping else { return .notOffered }
        var keys =
            files[.dg14].flatMap { try? SecurityOptions($0, kind: .dg14) }?.chipAuthenticationPublicKeyInfos
            .map(\.publicKey) ?? []
        var cardSecurity: CardSecurityVerification.Status?
        if let bytes = files[.cardSecurity] {
            let verification = CardSecurityVerification(bytes, trustStore: trustStore, at: checkTime)
            cardSecurity = verification.status
            keys = verification.securityInfos?.chipAuthenticationPublicKeyInfos.map(\.publicKey) ?? []
        }
        guard !keys.isEmpty else {
            return .denied("the dump holds PACE-CAM's proof but no EF.CardSecurity (nor DG14) key to check it against")
        }
        do throws(ChipAuthenticationError) {
            _ = try ChipAuthenticationMappingVerifier.verify(
                chipAuthenticationData: [UInt8](proof.authenticationData),
                chipMappingPublicKey: [UInt8](proof.chipMappingPublicKey), candidates: keys)
        } catch {
            return error.code == .unusableKey
                ? .notRun("PACE-CAM's proof cannot be checked: \(error.reason)")
                : .denied("the recorded PACE-CAM proof does not verify: \(error.reason)")
        }
        switch cardSecurity {
        case nil: return keyed(14, data: data, name: "PACE-CAM")
        case .authentic?: return .authenticated
        case .authorityNotProvided?:
            return .unproven(
                "PACE-CAM verified, but no trusted CSCA issued EF.CardSecurity's signer, so its key is not proved")
        case .notAuthentic(let reason)?:
            return .denied("PACE-CAM used a key from an EF.CardSecurity that is not authentic: \(reason)")
        }
    }

    private static func chipAuthentication(_ evidence: AcquisitionEvidence) -> ChipProtocolOutcome {
        guard let proof = evidence.chipAuthentication else { return .notOffered }
        return .notRun(
            "Chip Authentication was performed\(proof.confirmed ? " and the chip answered under the new keys" : ""), "
                + "but it cannot be proved offline: its transcript can be forged by whoever holds the terminal's "
                + "ephemeral key")
    }
}
