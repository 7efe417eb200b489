import AccessControl
import Emrtd
import Foundation
import ICAO
import MRZ

/// The terminal summary of a read: holder, document, files, access, both verdicts with their
/// reasons, warnings and the link's figures — what `emrtd read` prints without `--json`.
public func textSummary(of document: TravelDocument, elapsed: Duration) -> String {
    var lines: [String] = []
    do {
        let fields = document.machineReadableZoneInformation.fields
        let name = [fields.secondaryIdentifier, fields.primaryIdentifier].compactMap { $0 }
        // The dates as ISO dates (the century resolved as DG1's checks resolve it), else as stored.
        let validity = MRZValidity(document.machineReadableZoneInformation.machineReadableZone, at: Date())
        let born = validity.dateOfBirth.isoDate ?? fields.dateOfBirth
        let expires = validity.dateOfExpiry.isoDate ?? fields.dateOfExpiry
        let nationality = CountryNames.described(fields.nationality)
        lines.append("holder:    \(name.joined(separator: " ")), born \(born), \(nationality)")
        lines.append(
            "document:  \(fields.documentCode) \(fields.documentNumber),"
                + " issued by \(CountryNames.described(fields.issuingState)),"
                + " expires \(expires)")
    }
    let files = document.ldsMasterFile.filesRead.map(\.rawValue)
    lines.append("files:     \(files.joined(separator: " "))")
    if !document.deniedFiles.isEmpty {
        lines.append("denied:    \(document.deniedFiles.map(\.rawValue).joined(separator: " "))")
    }
    lines.append("access:    \(accessDescription(document))")
    let data = document.authenticationStatus.data
    let checks = [
        "signature \(data.sodSignatureValid ? "valid" : "not valid")",
        "chain \(data.certificateChainValid ? "valid" : "not valid")",
        "hashes \(data.dataGroupHashesValid ? "valid" : "not valid")",
    ]
    lines.append("data:      \(PeopleWords.words(data.status.rawValue)) (\(checks.joined(separator: ", ")))")
    for hash in data.dataGroupHashes {
        lines.append("           dg\(hash.dataGroupNumber) \(PeopleWords.words(hash.status.rawValue))")
    }
    for error in data.errors { lines.append("           \(error)") }
    let chip = document.authenticationStatus.chip
    lines.append("chip:      \(PeopleWords.words(chip.status.rawValue)): \(chip.reason)")
    let terminal = document.authenticationStatus.terminal
    if terminal.status != .notConfigured {
        lines.append("terminal:  \(PeopleWords.words(terminal.status.rawValue)): \(terminal.reason)")
    }
    for warning in document.warnings { lines.append("warning:   \(warning)") }
    let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
    // A document assembled from a dump went over no link.
    if case let debugInfo = document.debugInfo, debugInfo.apduCount > 0 {
        lines.append("link:      \(debugInfo.apduCount) APDUs, \(debugInfo.bytesTransferred) bytes, \(milliseconds) ms")
    }
    return lines.joined(separator: "\n")
}

/// How the chip was opened, in one phrase: `bac`, or PACE's protocol, parameters and password
/// kind (never the password).
func accessDescription(_ document: TravelDocument) -> String {
    guard let pace = document.pace else { return document.accessControlProtocolUsed.rawValue }
    let parameters = pace.parameterId.map { id in
        " on \(pace.standardizedDomainParameters?.name ?? "the chip's own parameters") (\(id))"
    }
    return "pace: \(pace.paceProtocol)\(parameters ?? ""), \(pace.password) password"
}

/// The debug log, one event a line: seconds since the start, then the step or APDU.
public func debugLogText(_ events: [DebugEvent]) -> String {
    events.map { event in
        String(format: "%8.3f  ", Double(event.timestampMillis) / 1000)
            + event.message.replacingOccurrences(of: "\n", with: "\n          ")
    }.joined(separator: "\n")
}
