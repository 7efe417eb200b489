import LDS

/// What one protocol that proves the chip genuine gave during a read.
public enum ChipProtocolOutcome: Sendable, Hashable {
    /// The document does not offer it (no Chip Authentication key in DG14, no PACE-CAM, no DG15).
    case notOffered
    /// Offered but not run; the reason says why (its rule did not call for it, a key it needs did
    /// not pass Passive Authentication, this reader does not run it yet).
    case notRun(String)
    case authenticated
    /// Run, and the chip's answer did not verify.
    case denied(String)

    var hasRun: Bool {
        switch self {
        case .authenticated, .denied: true
        case .notOffered, .notRun: false
        }
    }
}

/// Everything the chip verdict is decided from.
public struct ChipEvidence: Sendable, Hashable {
    public var chipAuthenticationMapping: ChipProtocolOutcome
    public var chipAuthentication: ChipProtocolOutcome
    public var activeAuthentication: ChipProtocolOutcome
    /// The chip's INTERNAL AUTHENTICATE answer, when Active Authentication ran.
    public var activeAuthenticationResponse: [UInt8]?

    public init(
        chipAuthenticationMapping: ChipProtocolOutcome = .notOffered,
        chipAuthentication: ChipProtocolOutcome = .notOffered,
        activeAuthentication: ChipProtocolOutcome = .notOffered, activeAuthenticationResponse: [UInt8]? = nil
    ) {
        self.chipAuthenticationMapping = chipAuthenticationMapping
        self.chipAuthentication = chipAuthentication
        self.activeAuthentication = activeAuthentication
        self.activeAuthenticationResponse = activeAuthenticationResponse
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

/// PACE-CAM decides when it ran: the chip proved (or failed to prove) its static key in PACE.
public struct ChipAuthenticationMappingStep: ChipVerdictStep {
    public init() {}
    public func decide(_ evidence: ChipEvidence) -> ChipAuthenticationStatus? {
        switch evidence.chipAuthenticationMapping {
        case .authenticated:
            ChipVerdict.status(
                .authenticated, .paceChipAuthenticationMapping, evidence,
                reason: "PACE-CAM: the chip proved the key of its signed security data")
        case .denied(let reason):
            ChipVerdict.status(.denied, .paceChipAuthenticationMapping, evidence, reason: reason)
        case .notOffered, .notRun: nil
        }
    }
}

/// Chip Authentication decides when it ran. Its failure never reaches here: a chip that cannot
/// answer under the agreed keys fails the read (`ReadError.chipAuthentication`).
public struct ChipAuthenticationStep: ChipVerdictStep {
    public init() {}
    public func decide(_ evidence: ChipEvidence) -> ChipAuthenticationStatus? {
        switch evidence.chipAuthentication {
        case .authenticated:
            ChipVerdict.status(
                .authenticated, .chipAuthentication, evidence,
                reason: "Chip Authentication: the chip answered under keys agreed with its DG14 key")
        case .denied(let reason):
            ChipVerdict.status(.denied, .chipAuthentication, evidence, reason: reason)
        case .notOffered, .notRun: nil
        }
    }
}

/// Active Authentication decides when nothing before did and it verified.
public struct ActiveAuthenticationStep: ChipVerdictStep {
    public init() {}
    public func decide(_ evidence: ChipEvidence) -> ChipAuthenticationStatus? {
        guard case .authenticated = evidence.activeAuthentication else { return nil }
        return ChipVerdict.status(
            .authenticated, .activeAuthentication, evidence,
            reason: "Active Authentication: the chip signed the challenge with its DG15 key")
    }
}

/// The chip verdict from the read's evidence.
public enum ChipVerdict {
    /// The reference model's order: a denied Active Authentication, then PACE-CAM, then Chip
    /// Authentication, then Active Authentication; with none of them, `notSupported`.
    public static let standardSteps: [any ChipVerdictStep] = [
        ActiveAuthenticationDenialStep(), ChipAuthenticationMappingStep(), ChipAuthenticationStep(),
        ActiveAuthenticationStep(),
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
        _ status: ChipAuthenticationStatus.Status, _ chipProtocol: ChipAuthenticationStatus.ChipProtocol?,
        _ evidence: ChipEvidence, reason: String
    ) -> ChipAuthenticationStatus {
        let activeAuthentication: ChipAuthenticationStatus.Status? =
            switch evidence.activeAuthentication {
            case .authenticated: .authenticated
            case .denied: .denied
            case .notOffered, .notRun: nil
            }
        return ChipAuthenticationStatus(
            status: status, chipProtocol: chipProtocol, activeAuthentication: activeAuthentication,
            activeAuthenticationResponse: evidence.activeAuthenticationResponse, reason: reason)
    }
}
