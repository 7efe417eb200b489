import CMS
import Foundation
import JSON
import MRZ

/// What a terminal or a script decides on, beside the two verdicts: the chip's MRZ checked for
/// validity and expiry, compared with the zone printed on the page when that is known, and the
/// requirements of strict mode (`emrtd read --strict`, `verify --strict`) that are not met.
///
/// The verdicts say whether the data is what a state signed and whether the chip is genuine; they
/// do not say whether the document is still valid or is the one in hand. This does, so that the
/// caller accepts a document on one list of reasons rather than on `data.status` alone.
public struct DocumentChecks: Sendable, Hashable {
    public let data: DataAuthenticationStatus
    /// Nil offline (`emrtd verify`), where no chip answered.
    public let chip: ChipAuthenticationStatus?
    /// DG1's zone checked at the check time; nil when DG1 was not read or did not parse.
    public let mrzValidity: MRZValidity?
    /// The printed zone against DG1; nil when no printed zone was given (or DG1 is missing).
    public let pageComparison: MRZComparison?
    /// A printed zone was given but there is no DG1 to compare it with.
    public let printedZoneUncompared: Bool
    /// When validity and expiry were decided: what a report states beside its answer.
    public let checkTime: Date

    public init(
        data: DataAuthenticationStatus, chip: ChipAuthenticationStatus?, chipZone: MachineReadableZone?,
        printedZone: MachineReadableZone?, at checkTime: Date
    ) {
        self.data = data
        self.chip = chip
        self.checkTime = checkTime
        mrzValidity = chipZone.map { MRZValidity($0, at: checkTime) }
        if let printedZone, let chipZone {
            pageComparison = MRZComparison(printed: printedZone, chip: chipZone)
        } else {
            pageComparison = nil
        }
        printedZoneUncompared = printedZone != nil && chipZone == nil
    }

    /// The checks of a document read from its chip.
    public init(document: TravelDocument, printedZone: MachineReadableZone?, at checkTime: Date) {
        self.init(
            data: document.authenticationStatus.data, chip: document.authenticationStatus.chip,
            chipZone: document.machineReadableZoneInformation.machineReadableZone, printedZone: printedZone,
            at: checkTime)
    }

    /// Problems a person must be told of, whether or not strict mode is on: the page differs from
    /// the chip, DG1's check digits or dates are wrong, the document has expired. Field names only,
    /// never MRZ text.
    public var warnings: [String] {
        var warnings: [String] = []
        if let pageComparison, !pageComparison.matches {
            warnings.append(
                "the printed MRZ differs from the chip's (DG1) in: "
                    + pageComparison.differingFields.joined(separator: ", "))
        }
        if printedZoneUncompared { warnings.append("the printed MRZ could not be compared: DG1 was not read") }
        if let mrzValidity {
            warnings += mrzValidity.problems.map { "DG1: \($0)" }
            if mrzValidity.expired == true {
                warnings.append(
                    "the document expired on \(mrzValidity.dateOfExpiry.isoDate ?? mrzValidity.dateOfExpiry.raw)")
            }
        }
        return warnings
    }

    /// Each requirement of strict mode that is not met, in words; empty when the document passes.
    /// Strict mode asks for: the data `authenticated`; the page matching the chip (when a printed
    /// zone was given); DG1 with valid check digits, possible dates, and not expired; the chip
    /// not `denied` (`notSupported` passes: a chip that offers no proof, or one this reader
    /// cannot run, cannot be held against the document).
    public var unmetStrictRequirements: [String] {
        var unmet: [String] = []
        if data.status != .authenticated {
            unmet.append("the data is \(data.status.rawValue), not authenticated")
        }
        if let pageComparison, !pageComparison.matches { unmet.append("the printed MRZ differs from the chip's") }
        if printedZoneUncompared { unmet.append("the printed MRZ could not be compared with DG1") }
        if let mrzValidity {
            if !mrzValidity.problems.isEmpty { unmet.append("DG1's MRZ is not valid") }
            switch mrzValidity.expired {
            case true?: unmet.append("the document has expired")
            case nil: unmet.append("the document's expiry date is unknown")
            case false?: break
            }
        } else {
            unmet.append("there is no DG1 to check")
        }
        if chip?.status == .denied { unmet.append("the chip is denied") }
        return unmet
    }

    /// The one meaning of "accepted", whatever says it (the summary, the HTML report, `verify`,
    /// `verify --batch`, `serve`'s result, the C ABI, Python): every strict requirement met.
    public var accepted: Bool { unmetStrictRequirements.isEmpty }
}

extension DocumentChecks: JSONRepresentable {
    /// The `checks` object `emrtd read --json` and `emrtd verify` add to their output.
    public var json: JSONValue {
        [
            "accepted": .bool(accepted),
            "dataGroupsChecked": .integer(data.dataGroupsChecked),
            "mrzValidity": .optional(mrzValidity),
            "pageComparison": .optional(pageComparison),
            "expired": mrzValidity?.expired.map(JSONValue.bool) ?? .null,
            "warnings": .array(warnings.map(JSONValue.string)),
            "strict": [
                "passes": .bool(accepted),
                "unmet": .array(unmetStrictRequirements.map(JSONValue.string)),
            ],
        ]
    }
}

extension TravelDocument {
    /// The document's JSON with its `checks` added and every warning in the top-level `warnings`
    /// (the document's, then the checks'): what `read --json`, `serve`'s result and the C ABI's
    /// read give, so that a caller reading `warnings` alone misses none.
    public func json(checks: DocumentChecks) -> JSONValue {
        guard case .object(let members) = json else { return json }
        let allWarnings = JSONValue.array((warnings + checks.warnings).map(JSONValue.string))
        return .object(
            members.map { $0.key == "warnings" ? JSONMember("warnings", allWarnings) : $0 }
                + [JSONMember("checks", checks.json)])
    }
}
