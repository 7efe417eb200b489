import Foundation
import Testing

@testable import Emrtd

/// The chip verdict on every combination of what PACE-CAM, Chip Authentication and Active
/// Authentication gave, against the reference model's rules written out independently here.
@Suite struct ChipVerdictTests {
    static let outcomes: [ChipProtocolOutcome] = [
        .notOffered, .notRun("not run"), .authenticated, .denied("did not verify"), .unproven("key not proved"),
    ]

    /// The rules as the reference model states them: a denied AA denies; otherwise PACE-CAM, then
    /// CA, decides when it ran; otherwise AA's result; with none, notSupported.
    static func expected(_ evidence: ChipEvidence) -> (
        ChipStatus, ChipProtocol?
    ) {
        if case .denied = evidence.activeAuthentication { return (.denied, .activeAuthentication) }
        switch evidence.chipAuthenticationMapping {
        case .authenticated: return (.authenticated, .paceChipAuthenticationMapping)
        case .denied: return (.denied, .paceChipAuthenticationMapping)
        default: break
        }
        switch evidence.chipAuthentication {
        case .authenticated: return (.authenticated, .chipAuthentication)
        case .denied: return (.denied, .chipAuthentication)
        default: break
        }
        if case .authenticated = evidence.activeAuthentication { return (.authenticated, .activeAuthentication) }
        if case .unproven = evidence.chipAuthenticationMapping { return (.denied, .paceChipAuthenticationMapping) }
        if case .unproven = evidence.chipAuthentication { return (.denied, .chipAuthentication) }
        if case .unproven = evidence.activeAuthentication { return (.denied, .activeAuthentication) }
        return (.notSupported, nil)
    }

    @Test func everyCombinationFollowsTheRules() {
        var combinations = 0
        for mapping in Self.outcomes {
            for chipAuthentication in Self.outcomes {
                for active in Self.outcomes {
                    let response: Data? = active == .authenticated ? Data([0x6A, 0xBC]) : nil
                    let evidence = ChipEvidence(
                        chipAuthenticationMapping: mapping, chipAuthentication: chipAuthentication,
                        activeAuthentication: active, activeAuthenticationResponse: response)
                    let verdict = ChipVerdict.decide(evidence)
                    let (status, chipProtocol) = Self.expected(evidence)
                    #expect(verdict.status == status, "\(evidence)")
                    #expect(verdict.protocol == chipProtocol, "\(evidence)")
                    // AA's own result is reported whenever it ran, whoever decided.
                    let activeStatus: ChipStatus? =
                        switch active {
                        case .authenticated, .unproven: .authenticated
                        case .denied: .denied
                        default: nil
                        }
                    #expect(verdict.activeAuthentication == activeStatus)
                    #expect(verdict.activeAuthenticationResponse == response)
                    #expect(!verdict.reason.isEmpty)
                    combinations += 1
                }
            }
        }
        #expect(combinations == 125)
    }

    @Test func notSupportedSaysWhichOfferedProtocolDidNotRun() {
        let none = ChipVerdict.decide(ChipEvidence())
        #expect(none.status == .notSupported && none.protocol == nil)
        #expect(none.reason.contains("neither"))
        let onlyActive = ChipVerdict.decide(ChipEvidence(activeAuthentication: .notRun("AA: no challenge rule")))
        #expect(onlyActive.reason == "AA: no challenge rule")
        let both = ChipVerdict.decide(
            ChipEvidence(chipAuthentication: .notRun("CA: not yet"), activeAuthentication: .notRun("AA: not yet")))
        #expect(both.reason == "CA: not yet")
    }

    /// A withheld key file denies whatever verified, after a denied Active Authentication.
    @Test func aWithheldKeyFileDenies() {
        let withheld = ChipVerdict.decide(
            ChipEvidence(chipAuthentication: .authenticated, withheldKeyFiles: ["DG15 hidden", "DG14 hidden"]))
        #expect(withheld.status == .denied && withheld.protocol == nil && withheld.reason == "DG15 hidden")
        let both = ChipVerdict.decide(
            ChipEvidence(activeAuthentication: .denied("bad signature"), withheldKeyFiles: ["DG14 hidden"]))
        #expect(both.protocol == .activeAuthentication && both.reason == "bad signature")
    }

    @Test func aDeniedVerdictCarriesTheReason() {
        let verdict = ChipVerdict.decide(
            ChipEvidence(chipAuthentication: .authenticated, activeAuthentication: .denied("the signature is wrong")))
        #expect(verdict.reason == "the signature is wrong")
    }

    /// Every input of the rule: AA runs when DG15 holds a key and either a challenge was given or
    /// neither CA nor PACE-CAM ran.
    @Test(arguments: [false, true], [false, true])
    func activeAuthenticationRunsByTheRule(dataGroup15HoldsKey: Bool, challengeGiven: Bool) {
        for (chipAuthenticationRan, mappingRan) in [(false, false), (true, false), (false, true), (true, true)] {
            let runs = ChipEvidence.activeAuthenticationRuns(
                dataGroup15HoldsKey: dataGroup15HoldsKey, challengeGiven: challengeGiven,
                chipAuthenticationRan: chipAuthenticationRan, chipAuthenticationMappingRan: mappingRan)
            let nothingElseRan = !chipAuthenticationRan && !mappingRan
            #expect(runs == (dataGroup15HoldsKey && (challengeGiven || nothingElseRan)))
        }
    }

    /// A step list is composable: without the denial step, a verified CA wins over a denied AA.
    @Test func stepsCompose() {
        let evidence = ChipEvidence(chipAuthentication: .authenticated, activeAuthentication: .denied("bad"))
        #expect(ChipVerdict.decide(evidence).status == .denied)
        let withoutDenial = ChipVerdict.decide(
            evidence, steps: [ProtocolResultStep.chipAuthentication, ProtocolResultStep.activeAuthentication])
        #expect(withoutDenial.status == .authenticated && withoutDenial.protocol == .chipAuthentication)
    }
}
