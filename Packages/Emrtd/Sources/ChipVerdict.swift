import CMS
import Foundation
import LDS

/// What one protocol that proves the chip genuine gave during a read.
public enum ChipProtocolOutcome: Sendable, Hashable {
    /// The document does not offer it (no Chip Authentication key in DG14, no PACE-CAM, no DG15).
    case notOffered
    /// Offered but not run; the reason says why (its rule did not call for it, a key it needs did
    /// not pass Passive Authentication, this reader does not run it yet).
    case notRun(String)
    case authenticated
    /// Run, and the chip's answer verified, but against a key not proved to be the issuer's (its
    /// file failed or lacked Passive Authentication): the chip is not called genuine, and the
    /// protocol is not reported as missing either. The reason says why.
    case unproven(String)
    /// Run, and the chip's answer did not verify.
    case denied(String)
}

/// Everything the chip verdict is decided from.
public struct ChipEvidence: Sendable, Hashable {
    public var chipAuthenticationMapping: ChipProtocolOutcome
    public var chipAuthentication: ChipProtocolOutcome
    public var activeAuthentication: ChipProtocolOutcome
    /// The chip's INTERNAL AUTHENTICATE answer, when Active Authentication ran.
    public var activeAuthenticationResponse: Data?
    /// Why a key file the issuer signed for (DG14 or DG15 hashed in EF.SOD, EF.CardSecurity after
    /// PACE-CAM) was not delivered, one sentence per file: a clone without the private keys hides
    /// the files that name them.
    public var withheldKeyFiles: [String]

    public init(
        chipAuthenticationMapping: ChipProtocolOutcome = .notOffered,
        chipAuthentication: ChipProtocolOutcome = .notOffered,
        activeAuthentication: ChipProtocolOutcome = .notOffered, activeAuthenticationResponse: Data? = nil,
        withheldKeyFiles: [String] = []
    ) {
        self.chipAuthenticationMapping = chipAuthenticationMapping
        self.chipAuthentication = chipAuthentication
        self.activeAuthentication = activeAuthentication
        self.activeAuthenticationResponse = activeAuthenticationResponse
        self.withheldKeyFiles = withheldKeyFiles
    }

    /// Whether Active Authentication runs (the reference model's rule): DG15 holds a key and either
    /// the caller gave a challenge (it wants the signature) or neither Chip Authentication nor
    /// PACE-CAM ran (nothing else proves the chip).
    public static func activeAuthenticationRuns(
        dataGroup15HoldsKey: Bool, challengeGiven: Bool, chipAuthenticationRan: Bool,
        chipAuthenticationMappingRan: Bool
    ) -> Bool {
        dataGroup15HoldsKey && (challengeGiven || !(chipAuthenticationRan || chipAuthenticationMappingRan))
    }
}

/// One rule of the chip verdict, in the style of the certificate policies: it decides, or passes
/// to the next rule (nil). `ChipVerdict.decide` runs them in order.
public protocol ChipVerdictStep: Sendable {
    func decide(_ evidence: ChipEvidence) -> ChipAuthenticationStatus?
}

/// A denied Active Authentication denies the chip, whatever else verified: the chip that signed
/// is not the one DG15 names.
public struct ActiveAuthenticationDenialStep: ChipVerdictStep {
    public init() {}
    public func decide(_ evidence: ChipEvidence) -> ChipAuthenticationStatus? {
        guard case .denied(let reason) = evidence.activeAuthentication else { return nil }
        return ChipVerdict.status(.denied, .activeAuthentication, evidence, reason: reason)
    }
}

/// A key file the issuer signed for and the chip did not deliver denies the chip: it has not
/// proved what the issuer said it would, the way a copied chip without the private keys hides them.
public struct WithheldKeyFileStep: ChipVerdictStep {
    public init() {}

    /// The reasons `withheldKeyFiles` holds, one rule for a read and a dump: of the DG14 and DG15
    /// missing (`how`: the clause saying how, after "but"), those whose hash EF.SOD holds.
    public static func reasons(missing: [(number: Int, how: String)], data: DataAuthenticationStatus) -> [String] {
        missing.compactMap { number, how -> String? in
            let hashed = data.dataGroupHashes.contains { Int($0.dataGroupNumber) == number && $0.expectedHash != nil }
            guard hashed else { return nil }
            let key = number == 14 ? "Chip Authentication" : "Active Authentication"
            return "EF.SOD lists DG\(number), but \(how): a chip without the \(key) key the issuer signed for "
                + "can hide the file that names it"
        }
    }

    public func decide(_ evidence: ChipEvidence) -> ChipAuthenticationStatus? {
        guard let reason = evidence.withheldKeyFiles.first else { return nil }
        return ChipVerdict.status(.denied, nil, evidence, reason: reason)
    }
}

/// When no protocol proved the chip, one that ran and verified against an unproved key decides:
/// `denied` naming it and saying why, never `notSupported` (the chip has the protocol).
public struct UnprovenKeyStep: ChipVerdictStep {
    public init() {}
    public func decide(_ evidence: ChipEvidence) -> ChipAuthenticationStatus? {
        let outcomes: [(ChipProtocol, ChipProtocolOutcome)] = [
            (.paceChipAuthenticationMapping, evidence.chipAuthenticationMapping),
            (.chipAuthentication, evidence.chipAuthentication), (.activeAuthentication, evidence.activeAuthentication),
        ]
        for (chipProtocol, outcome) in outcomes {
            if case .unproven(let reason) = outcome {
                return ChipVerdict.status(.denied, chipProtocol, evidence, reason: reason)
            }
        }
        return nil
    }
}

/// One protocol's result decides when that protocol ran: PACE-CAM (the chip proved its static
/// key in PACE), Chip Authentication (it answered under keys agreed with its DG14 key), Active
/// Authentication (it signed the challenge with its DG15 key). A Chip Authentication failure
/// never reaches here: a chip that cannot answer under the agreed keys fails the read
/// (`ReadError.chipAuthentication`).
public struct ProtocolResultStep: ChipVerdictStep {
    public let chipProtocol: ChipProtocol
    let outcome: @Sendable (ChipEvidence) -> ChipProtocolOutcome
    let successReason: String

    public static let chipAuthenticationMapping = ProtocolResultStep(
        chipProtocol: .paceChipAuthenticationMapping, outcome: { $0.chipAuthenticationMapping },
        successReason: "PACE-CAM: the chip proved the key of its signed security data")
    public static let chipAuthentication = ProtocolResultStep(
        chipProtocol: .chipAuthentication, outcome: { $0.chipAuthentication },
        successReason: "Chip Authentication: the chip answered under keys agreed with its DG14 key")
    public static let activeAuthentication = ProtocolResultStep(
        chipProtocol: .activeAuthentication, outcome: { $0.activeAuthentication },
        successReason: "Active Authentication: the chip signed the challenge with its DG15 key")

    public func decide(_ evidence: ChipEvidence) -> ChipAuthenticationStatus? {
        switch outcome(evidence) {
        case .authenticated: ChipVerdict.status(.authenticated, chipProtocol, evidence, reason: successReason)
        case .denied(let reason): ChipVerdict.status(.denied, chipProtocol, evidence, reason: reason)
        case .notOffered, .notRun, .unproven: nil
        }
    }
}

/// The chip verdict from the read's evidence.
public enum ChipVerdict {
    /// The reference model's order: a denied Active Authentication, then PACE-CAM, then Chip
    /// Authentication, then Active Authentication; with none of them, `notSupported`. Before the
    /// protocols a withheld key file denies; after them one verified against an unproved key does.
    public static let standardSteps: [any ChipVerdictStep] = [
        ActiveAuthenticationDenialStep(), WithheldKeyFileStep(), ProtocolResultStep.chipAuthenticationMapping,
        ProtocolResultStep.chipAuthentication, ProtocolResultStep.activeAuthentication, UnprovenKeyStep(),
    ]

    public static func decide(_ evidence: ChipEvidence, steps: [any ChipVerdictStep] = standardSteps)
        -> ChipAuthenticationStatus
    {
        for step in steps {
            if let status = step.decide(evidence) { return status }
        }
        return status(.notSupported, nil, evidence, reason: notSupportedReason(evidence))
    }

    /// Why nothing proved the chip: the first protocol offered but not run, in the order they
    /// would have decided, or that none is offered.
    static func notSupportedReason(_ evidence: ChipEvidence) -> String {
        for outcome in [evidence.chipAuthenticationMapping, evidence.chipAuthentication, evidence.activeAuthentication]
        {
            if case .notRun(let reason) = outcome { return reason }
        }
        return "the chip offers neither Chip nor Active Authentication (no DG14, no DG15)"
    }

    static func status(
        _ status: ChipStatus, _ chipProtocol: ChipProtocol?,
        _ evidence: ChipEvidence, reason: String
    ) -> ChipAuthenticationStatus {
        let activeAuthentication: ChipStatus? =
            switch evidence.activeAuthentication {
            // Its signature verified: that outcome is kept, whatever its key is worth.
            case .authenticated, .unproven: .authenticated
            case .denied: .denied
            case .notOffered, .notRun: nil
            }
        return ChipAuthenticationStatus(
            status: status, protocol: chipProtocol, activeAuthentication: activeAuthentication,
            activeAuthenticationResponse: evidence.activeAuthenticationResponse, reason: reason)
    }
}
