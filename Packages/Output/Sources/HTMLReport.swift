import ASN1
import CMS
import Emrtd
import Foundation
import ICAO
import LDS
import MRZ

/// One self-contained HTML page for a person at a terminal, and for the file that is looked at
/// later: on top the overall answer (`DocumentChecks`' strict rules: accepted, or not accepted
/// with each reason), then the face and signature with both verdicts as badges, every warning of
/// the read, the holder and document fields (DG1, DG11, DG12; dates in ISO beside the stored
/// digits), DG1's validity at the check time, the printed page against the chip field by field,
/// the verdicts' reasons, the hash of every data group, the Document Signer and CSCA with their
/// validity, how the chip was opened, the APDU timeline, and a footer with the check time and
/// the trust material. It never tells a more reassuring story than the terminal did.
///
/// Nothing is fetched: images are `data:` URIs, the style is inline, and a Content Security
/// Policy forbids every other source and every script. Every value from the chip is escaped,
/// so a DG11 name holding `<script>` shows as text. The page prints on A4.
public enum HTMLReport {
    /// The page for `document` as `checks` judged it (the printed zone, the check time), having
    /// trusted `trust`; `title` names its origin (a reader, a dump directory).
    public static func render(
        _ document: TravelDocument, checks: DocumentChecks, trust: [TrustSource], title: String = "emrtd read"
    ) -> String {
        var body = ""
        body += answerSection(checks)
        body += header(document)
        body += warningSection(document.warnings + checks.warnings)
        body += holderSection(document, validity: checks.mrzValidity)
        body += mrzSection(checks)
        body += pageSection(checks)
        body += verdictSection(document)
        body += hashSection(document.authenticationStatus.data)
        body += certificateSection(document.authenticationStatus.data)
        body += accessSection(document)
        body += timelineSection(document.debugInfo)
        body += footer(checkTime: checks.checkTime, trust: trust)
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
            <meta name="referrer" content="no-referrer">
            <title>\(escape(title))</title>
            <style>\(style)</style>
            </head>
            <body>
            \(body)</body>
            </html>

            """
    }

    /// No source but the page itself: `data:` images, inline style, no script at all.
    static let contentSecurityPolicy =
        "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'none'; form-action 'none'; base-uri 'none'"

    static let style = """
        body{font:14px/1.4 sans-serif;color:#111;margin:0;padding:16px;max-width:960px}
        h1{font-size:22px;margin:0 0 4px}h2{font-size:16px;margin:18px 0 6px;border-bottom:1px solid #ccc}
        header{display:flex;gap:16px;align-items:flex-start}
        .portrait{width:160px;height:200px;object-fit:contain;border:1px solid #999;background:#eee;flex:none}
        .signature{max-width:240px;max-height:80px;border:1px solid #ccc}
        .badge{display:inline-block;padding:2px 8px;border-radius:4px;font-weight:bold;color:#fff;margin-right:6px}
        .authenticated,.valid{background:#1a7f37}.denied,.invalid{background:#c62828}
        .authorityCertificatesNotProvided,.notSupported,.notRead{background:#9a6700}
        table{border-collapse:collapse;width:100%}td,th{border:1px solid #ddd;padding:3px 6px;text-align:left;vertical-align:top}
        th{background:#f4f4f4;width:28%}code,.mono{font-family:monospace;font-size:12px;word-break:break-all}
        .warning{color:#9a6700}
        *{-webkit-print-color-adjust:exact;print-color-adjust:exact}
        .answer{color:#fff;padding:10px 14px;border-radius:6px;margin:0 0 14px}.answer p,.answer ul{margin:4px 0}
        .answer.accepted{background:#1a7f37}.answer.notAccepted{background:#c62828}
        .answerWord{font-size:26px;font-weight:bold}.reasons{font-size:16px;font-weight:bold}
        .bad{color:#c62828;font-weight:bold}.differs td{background:#fde2e1;font-weight:bold}
        footer{margin-top:18px}.nobreak{white-space:nowrap}
        @page{size:A4;margin:14mm}
        @media print{body{max-width:none;padding:0}.timeline td,.timeline th{font-size:8px;padding:0 3px}h2{break-after:avoid}tr{break-inside:avoid}header{break-inside:avoid}.answer{break-inside:avoid}}
        """

    /// Text for HTML content and attribute values.
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// An image as a `data:` URI: the PNG rendering when there is one, else the bytes when a
    /// browser shows their format (JPEG, PNG); nil for WSQ and unknown formats.
    static func dataURI(_ image: DocumentImage) -> String? {
        if let png = image.png { return "data:image/png;base64," + png.base64EncodedString() }
        switch image.format {
        case .jpeg: return "data:image/jpeg;base64," + image.bytes.base64EncodedString()
        case .png: return "data:image/png;base64," + image.bytes.base64EncodedString()
        default: return nil
        }
    }

    static func badge(_ status: String) -> String {
        "<span class=\"badge \(escape(status))\">\(escape(PeopleWords.words(status)))</span>"
    }

    /// A DG11/DG12 text as people read it: `<` fillers and separators as single spaces.
    static func readable(_ text: String?) -> String? {
        text.map { $0.split(whereSeparator: { $0 == "<" || $0 == " " }).joined(separator: " ") }
    }

    /// Label/value rows; absent and empty values are left out.
    static func table(_ rows: [(String, String?)]) -> String {
        let cells = rows.compactMap { label, value in
            value.flatMap { $0.isEmpty ? nil : "<tr><th>\(escape(label))</th><td>\(escape($0))</td></tr>" }
        }
        return cells.isEmpty ? "" : "<table>" + cells.joined() + "</table>\n"
    }

    /// The overall answer, decided by `DocumentChecks.unmetStrictRequirements` (the rules of
    /// `--strict`, not a copy of them): accepted when none is unmet, else not accepted with each
    /// unmet requirement beside it.
    static func answerSection(_ checks: DocumentChecks) -> String {
        let unmet = checks.unmetStrictRequirements
        let rule =
            "By the rules of emrtd --strict: accepted only when the data is authenticated, the chip is not denied,"
            + " the printed page matches the chip (when it was given),"
            + " DG1's check digits and dates hold, and the document is valid at "
        var html = "<section id=\"answer\" class=\"answer \(unmet.isEmpty ? "accepted" : "notAccepted")\">"
        html += "<p class=\"answerWord\">\(unmet.isEmpty ? "Accepted" : "Not accepted")</p>"
        if !unmet.isEmpty {
            html += "<ul class=\"reasons\">" + unmet.map { "<li>\(escape($0))</li>" }.joined() + "</ul>"
        }
        if checks.pageComparison == nil && !checks.printedZoneUncompared {
            html += "<p>No printed MRZ was given: the page was not compared with the chip.</p>"
        }
        return html + "<p>\(escape(rule))\(time(checks.checkTime)).</p></section>\n"
    }

    /// DG1's zone at the check time: each check digit, both dates resolved to a full year with the
    /// century rule used, and whether the document had expired.
    static func mrzSection(_ checks: DocumentChecks) -> String {
        guard let validity = checks.mrzValidity else { return "" }
        var rows: [(String, String, Bool)] = validity.checkDigits.map {
            ("Check digit: \(words($0.field))", $0.isValid ? "valid" : "NOT valid", !$0.isValid)
        }
        for (label, date) in [("Date of birth", validity.dateOfBirth), ("Date of expiry", validity.dateOfExpiry)] {
            let resolved =
                date.isoDate.map { "\(date.raw) is \($0) (century: \(date.rule))" }
                ?? "\(date.raw): no full date (\(date.problem ?? "a part is unknown"))"
            rows.append((label, resolved, date.isoDate == nil))
        }
        let checked = "at \(instant(validity.checkTime))"
        switch validity.expired {
        case true?:
            rows.append(
                ("Expired", "yes: expired on \(validity.dateOfExpiry.isoDate ?? "") (checked \(checked))", true))
        case false?:
            rows.append(
                ("Expired", "no: valid until \(validity.dateOfExpiry.isoDate ?? "") (checked \(checked))", false))
        case nil:
            rows.append(("Expired", "unknown: the date of expiry is not a full date (checked \(checked))", true))
        }
        let cells = rows.map { label, value, bad in
            "<tr><th>\(escape(label))</th><td\(bad ? " class=\"bad\"" : "")>\(escape(value))</td></tr>"
        }
        return "<h2>Machine readable zone (DG1) at the check time</h2>\n<table id=\"mrz\">" + cells.joined()
            + "</table>\n"
    }

    /// The printed zone (`--mrz-lines`) against DG1, field by field, each difference highlighted
    /// (red and in words: a printout in grey still shows it).
    static func pageSection(_ checks: DocumentChecks) -> String {
        var html = "<h2>Printed page against the chip (DG1)</h2>\n"
        if checks.printedZoneUncompared {
            return html + "<p class=\"bad\">The printed MRZ could not be compared: DG1 was not read.</p>\n"
        }
        guard let comparison = checks.pageComparison else {
            return html + "<p>No printed MRZ was given (--mrz-lines): the page was not compared with the chip.</p>\n"
        }
        html +=
            comparison.matches
            ? "<p>The printed MRZ matches the chip's.</p>\n"
            : "<p class=\"bad\">The printed MRZ differs from the chip's in: "
                + escape(comparison.differingFields.map(words).joined(separator: ", ")) + ".</p>\n"
        html += "<table id=\"page\"><tr><th>Field</th><th>Printed page</th><th>Chip (DG1)</th><th>Same</th></tr>"
        for field in comparison.fields where !(field.printed.isEmpty && field.chip.isEmpty) {
            let value = { (text: String) in escape(text).replacingOccurrences(of: "\n", with: "<br>") }
            html +=
                "<tr\(field.matches ? "" : " class=\"differs\"")><td>\(escape(words(field.field)))</td>"
                + "<td class=\"mono\">\(value(field.printed))</td><td class=\"mono\">\(value(field.chip))</td>"
                + "<td>\(field.matches ? "yes" : "DIFFERS")</td></tr>"
        }
        return html + "</table>\n"
    }

    /// When the checks ran and what was trusted: which CSCA bundle, files and lists, and how old
    /// each is (a master list's signing time; a PEM bundle keeps none, so its file's).
    static func footer(checkTime: Date, trust: [TrustSource]) -> String {
        let sources = trust.map { source -> String in
            var parts: [String] = []
            if let certificates = source.certificates {
                parts.append("\(certificates) certificate\(certificates == 1 ? "" : "s")")
            }
            if let signed = source.signingTime {
                parts.append("signed \(instant(signed))")
            } else if source.kind == .defaultBundle || source.kind == .masterList {
                parts.append("no signing time recorded")
            }
            if let written = source.written { parts.append("file written \(instant(written))") }
            let location = source.path.map { " \($0)" } ?? ""
            let name: String
            switch source.kind {
            case .defaultBundle: name = source.path == nil ? "default CSCA bundle: none found" : "default CSCA bundle"
            case .certificateFile: name = "CSCA file (--csca)"
            case .masterList: name = "master list (--masterlist)"
            case .revocationList: name = "revocation lists (--crl)"
            case .deviationList: name = "deviation list (--deviation-list)"
            case .specimenCSCA: name = "the simulator specimen's test CSCA, made for this read"
            }
            return
                "<li>\(escape(name + location + (parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")")))</li>"
        }
        let trusted = sources.isEmpty ? "nothing: no CSCA was trusted" : ""
        return "<footer id=\"footer\"><h2>Check time and trust</h2>\n<table>"
            + "<tr><th>Checked at</th><td>\(time(checkTime))</td></tr>"
            + "<tr><th>Trusted</th><td>\(escape(trusted))"
            + (sources.isEmpty ? "" : "<ul>" + sources.joined() + "</ul>") + "</td></tr></table></footer>\n"
    }

    static func header(_ document: TravelDocument) -> String {
        let fields = document.machineReadableZoneInformation.fields
        let name = [fields.secondaryIdentifier, fields.primaryIdentifier].compactMap { $0 }
        let face = document.encodedIdentificationFeaturesFace.images.first.flatMap(dataURI)
        let portrait =
            face.map { "<img class=\"portrait\" id=\"face\" alt=\"face (DG2)\" src=\"\($0)\">" }
            ?? "<div class=\"portrait\" id=\"face\">no face image</div>"
        let signature = document.displayedSignatureOrUsualMark?.displayedSignatureOrUsualMarkImage.flatMap(dataURI).map
        {
            "<p><img class=\"signature\" alt=\"signature (DG7)\" src=\"\($0)\"></p>"
        }
        let data = document.authenticationStatus.data.status.rawValue
        let chip = document.authenticationStatus.chip.status.rawValue
        let state = CountryNames.described(fields.issuingState)
        return """
            <header>\(portrait)<div>
            <h1>\(escape(name.isEmpty ? "unknown holder" : name.joined(separator: " ")))</h1>
            <p>\(escape([fields.documentCode, fields.documentNumber, state].joined(separator: " · ")))</p>
            <p>data \(badge(data)) chip \(badge(chip))</p>\(signature ?? "")
            </div></header>

            """
    }

    /// A stored date with its ISO form beside it, when it has one.
    static func dated(_ raw: String?, _ iso: String?) -> String? {
        guard let raw else { return nil }
        return iso.map { "\($0) (stored \(raw))" } ?? "\(raw) (no full date)"
    }

    /// `documentNumberCheckDigit` as `document number check digit`: the comparison's field names
    /// in words.
    static func words(_ name: String) -> String {
        name.reduce(into: "") { text, character in
            text += character.isUppercase ? " " + character.lowercased() : String(character)
        }
    }

    /// A check time, ISO 8601 UTC.
    static func instant(_ date: Date) -> String { UTCDateTime(date).iso8601 }

    /// A check time on one line (a break at its hyphens would misprint it).
    static func time(_ date: Date) -> String { "<span class=\"nobreak\">\(escape(instant(date)))</span>" }

    static func holderSection(_ document: TravelDocument, validity: MRZValidity?) -> String {
        var html = "<h2>Holder and document</h2>\n"
        do {
            let fields = document.machineReadableZoneInformation.fields
            html += table([
                ("Surname", fields.primaryIdentifier ?? ""), ("Given names", fields.secondaryIdentifier ?? ""),
                ("Nationality", CountryNames.described(fields.nationality)),
                ("Date of birth", dated(fields.dateOfBirth, validity?.dateOfBirth.isoDate)),
                ("Sex", fields.sex), ("Document", "\(fields.documentCode) \(fields.documentNumber)"),
                ("Issuing state", CountryNames.described(fields.issuingState)),
                ("Date of expiry", dated(fields.dateOfExpiry, validity?.dateOfExpiry.isoDate)),
                ("Optional data", fields.optionalData ?? ""),
                ("MRZ check digits", fields.checkDigitsValid ? "valid" : "NOT valid"),
            ])
        }
        if let details = document.additionalPersonalDetails {
            html += "<h2>Additional personal details (DG11)</h2>\n"
            html += table([
                ("Full name", readable(details.fullNameText)),
                ("Other names", details.otherNames.joined(separator: "; ")),
                ("Personal number", details.personalNumber),
                (
                    "Full date of birth",
                    dated(details.fullDateOfBirthRecord?.value, details.fullDateOfBirthRecord?.iso8601)
                ),
                ("Place of birth", readable(details.placeOfBirthText)),
                ("Address", readable(details.addressText)), ("Telephone", details.telephoneText),
                ("Profession", details.profession), ("Title", details.title),
                ("Personal summary", details.personalSummary),
                ("Other travel documents", readable(details.otherValidTravelDocumentNumbersText)),
                ("Custody information", details.custodyInformation),
            ])
        }
        if let details = document.additionalDocumentDetails {
            html += "<h2>Additional document details (DG12)</h2>\n"
            html += table([
                ("Issuing authority", details.issuingAuthority),
                ("Date of issue", dated(details.dateOfIssueRecord?.value, details.dateOfIssueRecord?.iso8601)),
                ("Other persons", details.otherPersonDetails?.joined(separator: "; ")),
                ("Endorsements", details.endorsementsOrObservations),
                ("Tax or exit requirements", details.taxOrExitRequirements),
                (
                    "Personalization time",
                    dated(details.dateAndTimeOfPersonalization?.value, details.dateAndTimeOfPersonalization?.iso8601)
                ),
                ("Personalization system", details.personalizationDeviceSerialNumberText),
            ])
        }
        return html
    }

    static func verdictSection(_ document: TravelDocument) -> String {
        let data = document.authenticationStatus.data
        let chip = document.authenticationStatus.chip
        var html = "<h2>Verdicts</h2>\n<table>"
        let checks = [
            "SOD signature \(data.sodSignatureValid ? "valid" : "not valid")",
            "certificate chain \(data.certificateChainValid ? "valid" : "not valid")",
            "data group hashes \(data.dataGroupHashesValid ? "valid" : "not valid")",
        ]
        let reasons = (checks + data.errors.map(\.description)).map(escape).joined(separator: "<br>")
        html += "<tr><th>Data (Passive Authentication)</th><td>\(badge(data.status.rawValue)) \(reasons)</td></tr>"
        let protocolName = chip.protocol.map { " (\(PeopleWords.words($0.rawValue)))" } ?? ""
        html +=
            "<tr><th>Chip\(escape(protocolName))</th><td>\(badge(chip.status.rawValue)) \(escape(chip.reason))</td></tr>"
        if let active = chip.activeAuthentication {
            html += "<tr><th>Active Authentication</th><td>\(badge(active.rawValue))</td></tr>"
        }
        let terminal = document.authenticationStatus.terminal
        if terminal.status != .notConfigured {
            html +=
                "<tr><th>Terminal Authentication (DG3, DG4)</th><td>\(badge(terminal.status.rawValue)) "
                + "\(escape(terminal.reason))</td></tr>"
        }
        return html + "</table>\n"
    }

    static func hashSection(_ data: DataAuthenticationStatus) -> String {
        guard !data.dataGroupHashes.isEmpty else { return "" }
        var html = "<h2>Data group hashes (\(escape(data.hashAlgorithm ?? "unknown algorithm")))</h2>\n"
        html += "<table><tr><th>Data group</th><th>Status</th><th>Hash in EF.SOD</th></tr>"
        for hash in data.dataGroupHashes {
            let expected = hash.expectedHash.map { Hex.encode($0) } ?? "none"
            html +=
                "<tr><td>DG\(hash.dataGroupNumber)</td><td>\(badge(hash.status.rawValue))</td>"
                + "<td class=\"mono\">\(escape(expected))</td></tr>"
        }
        return html + "</table>\n"
    }

    static func certificateSection(_ data: DataAuthenticationStatus) -> String {
        var html = ""
        for (heading, certificate) in [
            ("Document Signer", data.documentSignerCertificate), ("Country Signing CA", data.countrySigningCertificate),
        ] {
            guard let certificate else { continue }
            html += "<h2>\(heading)</h2>\n"
            html += table([
                ("Subject", certificate.subject), ("Issuer", certificate.issuer),
                ("Valid", "\(certificate.notBefore) to \(certificate.notAfter)"),
                ("Serial number", certificate.serialNumber),
                ("Key", "\(certificate.publicKeyAlgorithm) \(certificate.publicKeySize) bits"),
                ("Signature", certificate.signatureAlgorithm), ("SHA-256", certificate.sha256Fingerprint),
            ])
        }
        if data.countrySigningCertificate == nil {
            html += "<p class=\"warning\">No trusted Country Signing CA matched the Document Signer.</p>\n"
        }
        return html
    }

    static func accessSection(_ document: TravelDocument) -> String {
        var rows: [(String, String?)] = [("Protocol", accessDescription(document))]
        if let pace = document.pace {
            rows += [
                ("PACE protocol OID", pace.paceProtocol.identifier.dotted),
                ("Mapping", pace.paceProtocol.mapping.rawValue),
                ("Parameters", pace.standardizedDomainParameters?.name ?? pace.parameterId.map { "ID \($0)" }),
                ("Password", "\(pace.password)"),
            ]
        }
        rows.append(("Files read", document.ldsMasterFile.filesRead.map(\.rawValue).joined(separator: " ")))
        if !document.deniedFiles.isEmpty {
            rows.append(("Files refused", document.deniedFiles.map(\.rawValue).joined(separator: " ")))
        }
        return "<h2>Access</h2>\n" + table(rows)
    }

    /// Every warning of the read, in its order: the read's own (`TravelDocument.warnings`), then
    /// the checks' (`DocumentChecks.warnings`), as the terminal prints them. Shown when empty too,
    /// so that a filed page says there were none.
    static func warningSection(_ warnings: [String]) -> String {
        guard !warnings.isEmpty else { return "<h2>Warnings</h2>\n<p id=\"warnings\">None.</p>\n" }
        return "<h2>Warnings</h2>\n<ul id=\"warnings\">"
            + warnings.map { "<li class=\"warning\">\(escape($0))</li>" }.joined() + "</ul>\n"
    }

    /// The read's steps and APDUs as the debug log recorded them (under secure messaging the
    /// protected APDUs with the plain command and answer beside them, plain data that may be
    /// secret or personal as its length; access-control cryptograms are redacted by the recorder).
    static func timelineSection(_ debugInfo: DebugInfo?) -> String {
        guard let debugInfo else { return "" }
        var html =
            "<h2>APDU timeline</h2>\n<p>\(debugInfo.apduCount) APDUs, \(debugInfo.bytesTransferred) bytes, "
            + "\(debugInfo.durationMs) ms</p>\n"
        guard !debugInfo.events.isEmpty else { return html }
        html += "<table class=\"timeline\"><tr><th>ms</th><th>Step or APDU</th></tr>"
        for event in debugInfo.events {
            html += "<tr><td>\(event.timestampMillis)</td><td class=\"mono\">\(escape(event.message))</td></tr>"
        }
        return html + "</table>\n"
    }
}
