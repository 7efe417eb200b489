import Emrtd
import Foundation
import JSON
import LDS
import MRZ
import Output
import Transport

/// What a tab typed as the access key, checked before any APDU: MRZ lines (OCR confusions put
/// right where only one reading is valid), the document number with the dates of birth and
/// expiry on one line, or a CAN.
struct StationKey {
    var password: AccessPassword?
    /// The printed zone, compared with the chip's DG1 once read.
    var zone: MachineReadableZone?
    /// What is wrong, in words; empty when `password` is set.
    var problems: [String] = []
    var correction: MRZCorrection?

    static func check(_ message: JSONValue) -> StationKey {
        var key = StationKey()
        do throws(MRZError) {
            if let can = message.string("can") {
                key.password = try AccessPassword.can(value: can)
                return key
            }
            guard case .array(let values)? = message["lines"] else {
                key.problems = ["give the MRZ lines or the CAN"]
                return key
            }
            let lines = values.compactMap { value -> String? in
                guard case .string(let text) = value else { return nil }
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                return trimmed.isEmpty ? nil : trimmed
            }
            let words = lines.count == 1 ? lines[0].split(separator: " ").map(String.init) : []
            if words.count == 3 {
                key.password = try AccessPassword.mrz(
                    documentNumber: words[0].uppercased(), dateOfBirth: words[1], dateOfExpiry: words[2])
                return key
            }
            let read =
                try lines.count == 1
                ? MachineReadableZone.parse(unbrokenText: lines[0]) : MachineReadableZone.parse(lines: lines)
            let correction = try MRZCorrection.correcting(lines: read.lines)
            let zone = try correction.zone
            key.correction = correction
            key.problems = MRZValidity(zone, at: Date()).problems
            if key.problems.isEmpty {
                key.zone = zone
                key.password = try AccessPassword.printed(in: zone)
            }
        } catch {
            key.problems = [error.reason]
        }
        return key
    }

    /// The `checked` message: `ok`, `problems`, the corrected `lines` and each change.
    var json: JSONValue {
        [
            "type": "checked", "ok": .bool(password != nil), "problems": .array(problems.map(JSONValue.string)),
            "lines": correction.map { .array($0.lines.map(JSONValue.string)) } ?? .null,
            "corrections": correction?.json ?? .null,
        ]
    }
}

/// The answer screen's content: the overall answer by `DocumentChecks`' rules, the holder, the
/// face as a `data:` URI the page decodes, the verdicts, the warnings, and the HTML report that
/// "Print" prints.
struct StationAnswer {
    let document: TravelDocument
    let checks: DocumentChecks
    /// `--strict`: a document not accepted shows no holder data.
    let strict: Bool
    let trust: [TrustSource]

    var json: JSONValue {
        let accepted = checks.accepted
        let fields = document.machineReadableZoneInformation.fields
        let name = [fields.secondaryIdentifier, fields.primaryIdentifier].compactMap { $0 }.joined(separator: " ")
        let showsHolder = accepted || !strict
        let holder: JSONValue =
            showsHolder
            ? [
                "name": .string(name), "nationality": .string(CountryNames.described(fields.nationality)),
                "dateOfBirth": .string(checks.mrzValidity?.dateOfBirth.isoDate ?? fields.dateOfBirth),
                "dateOfExpiry": .string(checks.mrzValidity?.dateOfExpiry.isoDate ?? fields.dateOfExpiry),
                "documentNumber": .string(fields.documentNumber),
                "issuingState": .string(CountryNames.described(fields.issuingState)),
                "sex": .string(fields.sex),
            ] : .null
        let face = showsHolder ? document.encodedIdentificationFeaturesFace.images.first.flatMap(Self.dataURI) : nil
        let status = document.authenticationStatus
        return [
            "type": "answer", "accepted": .bool(accepted),
            "reasons": .array(checks.unmetStrictRequirements.map(JSONValue.string)),
            "holder": holder, "face": face.map(JSONValue.string) ?? .null,
            "data": .string(status.data.status.rawValue), "chip": .string(status.chip.status.rawValue),
            "chipReason": .string(status.chip.reason),
            "warnings": .array((document.warnings + checks.warnings).map(JSONValue.string)),
            "report": showsHolder
                ? .string(HTMLReport.render(document, checks: checks, trust: trust, title: "emrtd station")) : .null,
        ]
    }

    /// A browser decodes PNG (JPEG 2000's rendering) and JPEG; other formats show no face.
    static func dataURI(_ image: DocumentImage) -> String? {
        if let png = image.png { return "data:image/png;base64," + png.base64EncodedString() }
        switch image.format {
        case .jpeg: return "data:image/jpeg;base64," + image.bytes.base64EncodedString()
        case .png: return "data:image/png;base64," + image.bytes.base64EncodedString()
        default: return nil
        }
    }

    /// A failed read as a key of the page's messages file (what happened, in a user's words,
    /// and what to do). `connected`: the card was reached before the failure.
    static func errorKey(_ error: ReadError, connected: Bool) -> String {
        switch error.kind {
        case .notConnected, .transport(.TagLost), .transport(.Io), .transport(.Timeout):
            connected ? "cardRemoved" : "noCard"
        case .transport(.Cancelled): "cancelled"
        case .nfcUnavailable: "readerUnavailable"
        case .accessControl: "accessDenied"
        case .cancelled: "cancelled"
        case .chipAuthentication: "chipFailed"
        case .invalidArgument: "badKey"
        default: "readFailed"
        }
    }
}
