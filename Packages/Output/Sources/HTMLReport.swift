import ASN1
import CMS
import Emrtd
import Foundation
import ICAO
import LDS
import MRZ

/// One self-contained HTML page for a person at a terminal: the face and signature, the holder
/// and document fields (DG1, DG11, DG12), both verdicts as badges with their reasons, the hash of
/// every data group, the Document Signer and CSCA with their validity, how the chip was opened,
/// the warnings and the APDU timeline.
///
/// Nothing is fetched: images are `data:` URIs, the style is inline, and a Content Security
/// Policy forbids every other source and every script. Every value from the chip is escaped,
/// so a DG11 name holding `<script>` shows as text. The page prints on A4.
public enum HTMLReport {
    /// The page for `document`; `title` names its origin (a reader, a dump directory).
    public static func render(_ document: TravelDocument, title: String = "emrtd read") -> String {
        var body = ""
        body += header(document)
        body += holderSection(document)
        body += verdictSection(document)
        body += hashSection(document.authenticationStatus.data)
        body += certificateSection(document.authenticationStatus.data)
        body += accessSection(document)
        body += warningSection(document.warnings)
        body += timelineSection(document.debugInfo)
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
        @page{size:A4;margin:14mm}
        @media print{body{max-width:none;padding:0}.timeline td,.timeline th{font-size:8px;padding:0 3px}h2{break-after:avoid}tr{break-inside:avoid}header{break-inside:avoid}}
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
        if let png = image.png { return "data:image/png;base64," + Data(png).base64EncodedString() }
        switch image.format {
        case .jpeg: return "data:image/jpeg;base64," + Data(image.bytes).base64EncodedString()
        case .png: return "data:image/png;base64," + Data(image.bytes).base64EncodedString()
        default: return nil
        }
    }

    static func badge(_ status: String) -> String {
        "<span class=\"badge \(escape(status))\">\(escape(status))</span>"
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

    static func header(_ document: TravelDocument) -> String {
        let fields = document.machineReadableZoneInformation?.fields
        let name = [fields?.secondaryIdentifier, fields?.primaryIdentifier].compactMap { $0 }.filter { !$0.isEmpty }
        let face = document.encodedIdentificationFeaturesFace?.images.first.flatMap(dataURI)
        let portrait =
            face.map { "<img class=\"portrait\" id=\"face\" alt=\"face (DG2)\" src=\"\($0)\">" }
            ?? "<div class=\"portrait\" id=\"face\">no face image</div>"
        let signature = document.displayedSignatureOrUsualMark?.images.first.flatMap(dataURI).map {
            "<p><img class=\"signature\" alt=\"signature (DG7)\" src=\"\($0)\"></p>"
        }
        let data = document.authenticationStatus.data.status.rawValue
        let chip = document.authenticationStatus.chip.status.rawValue
        return """
            <header>\(portrait)<div>
            <h1>\(escape(name.isEmpty ? "unknown holder" : name.joined(separator: " ")))</h1>
            <p>\(escape([fields?.documentCode, fields?.documentNumber, fields?.issuingStateOrOrganization].compactMap { $0 }.joined(separator: " · ")))</p>
            <p>data \(badge(data)) chip \(badge(chip))</p>\(signature ?? "")
            </div></header>

            """
    }

    static func holderSection(_ document: TravelDocument) -> String {
        var html = "<h2>Holder and document</h2>\n"
        if let fields = document.machineReadableZoneInformation?.fields {
            html += table([
                ("Surname", fields.primaryIdentifier), ("Given names", fields.secondaryIdentifier),
                ("Nationality", fields.nationality), ("Date of birth (YYMMDD)", fields.dateOfBirth),
                ("Sex", fields.sex), ("Document", "\(fields.documentCode) \(fields.documentNumber)"),
                ("Issuing state", fields.issuingStateOrOrganization),
                ("Date of expiry (YYMMDD)", fields.dateOfExpiry),
                ("Optional data", fields.optionalData.filter { !$0.isEmpty }.joined(separator: " ")),
                ("MRZ check digits", fields.checkDigitsValid ? "valid" : "NOT valid"),
            ])
        }
        if let details = document.additionalPersonalDetails {
            html += "<h2>Additional personal details (DG11)</h2>\n"
            html += table([
                ("Full name", readable(details.fullName)),
                ("Other names", details.otherNames.compactMap(readable).joined(separator: "; ")),
                ("Personal number", readable(details.personalNumber)),
                ("Full date of birth", details.fullDateOfBirth?.value),
                ("Place of birth", readable(details.placeOfBirth)),
                ("Address", readable(details.permanentAddress)), ("Telephone", details.telephone),
                ("Profession", readable(details.profession)), ("Title", readable(details.title)),
                ("Personal summary", readable(details.personalSummary)),
                ("Other travel documents", readable(details.otherValidTravelDocumentNumbers)),
                ("Custody information", readable(details.custodyInformation)),
            ])
        }
        if let details = document.additionalDocumentDetails {
            html += "<h2>Additional document details (DG12)</h2>\n"
            html += table([
                ("Issuing authority", readable(details.issuingAuthority)),
                ("Date of issue", details.dateOfIssue?.value),
                ("Other persons", details.namesOfOtherPersons.compactMap(readable).joined(separator: "; ")),
                ("Endorsements", readable(details.endorsementsAndObservations)),
                ("Tax or exit requirements", readable(details.taxOrExitRequirements)),
                ("Personalization time", details.dateAndTimeOfPersonalization?.value),
                ("Personalization system", details.personalizationSystemSerialNumber),
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
        let protocolName = chip.chipProtocol.map { " (\($0.rawValue))" } ?? ""
        html +=
            "<tr><th>Chip\(escape(protocolName))</th><td>\(badge(chip.status.rawValue)) \(escape(chip.reason))</td></tr>"
        if let active = chip.activeAuthentication {
            html += "<tr><th>Active Authentication</th><td>\(badge(active.rawValue))</td></tr>"
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

    static func warningSection(_ warnings: [String]) -> String {
        guard !warnings.isEmpty else { return "" }
        return "<h2>Warnings</h2>\n<ul>"
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
