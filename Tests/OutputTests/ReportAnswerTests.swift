import ASN1
import ChipSimulator
import Emrtd
import Foundation
import LDS
import MRZ
import Output
import TestSupport
import Testing

/// The report's overall answer as a person sees it: each page is printed by headless Chromium
/// and its text read back with `pdftotext -layout` (rows kept together; what is drawn, not the HTML source: a hidden element
/// would not count). An expired document, a page that differs from the chip, a denied chip and
/// a document with no trusted CSCA each say "Not accepted" with their reason; a clean one says
/// "Accepted". The screenshots and PDFs stay in `.build/report-screenshots/`.
@Suite struct ReportAnswerTests {
    /// Inside the specimen's validity (it expires on 1994-06-23), where its PKI is signed too.
    static let inside = UTCDateTime(year: 1993, month: 6, day: 1, hour: 12)
    /// After it expired, its PKI signed then.
    static let after = UTCDateTime(year: 2026, month: 6, day: 1, hour: 12)

    /// A read of the specimen signed at `time`, checked then, its chip made with `credentials`
    /// (the standard ones when nil) and `faults`; its CSCA is trusted unless `trusted` is false
    /// (and then nothing is).
    static func report(
        at time: UTCDateTime?, printed: [String]? = nil, credentials: Credentials? = nil, faults: [ChipFault] = [],
        trusted: Bool = true
    ) throws -> String {
        let at = try #require(time).date
        let specimen = try Specimen.generate(at: at, credentials: credentials)
        let reader = try EmrtdReader(
            config: ReaderConfig(
                useBuiltInAuthorityCertificates: false,
                authorityCertificates: trusted ? [Data(specimen.countrySigningCertificate)] : [], debug: true),
            clock: { at })
        let document = try reader.read(
            transport: SimulatedChip(
                configuration: ChipConfiguration(
                    files: specimen.files, credentials: specimen.credentials, faults: faults)),
            accessKey: HTMLReportTests.accessKey)
        let printedZone = try printed.map { try parseMrz(lines: $0) }
        let checks = DocumentChecks(document: document, printedZone: printedZone, at: at)
        return HTMLReport.render(
            document, checks: checks, trust: trusted ? [TrustSource(.specimenCSCA, path: nil, certificates: 1)] : [],
            title: "answer")
    }

    /// The specimen's zone as printed (ICAO 9303-4's Anna Maria Eriksson), its sex changed when
    /// `sex` is given.
    static func printedLines(sex: Character = "F") -> [String] {
        let lines = Specimen.machineReadableZoneLines
        var second = Array(lines[1])
        second[20] = sex
        return [lines[0], String(second)]
    }

    /// The page's text as Chromium prints it, whitespace collapsed; nil (recorded) without the
    /// browser or pdftotext.
    static func printedText(_ html: String, name: String) throws -> String? {
        guard let chromium = Prerequisites.tool("chromium", package: "chromium"),
            let pdftotext = Prerequisites.tool("pdftotext", package: "poppler-utils")
        else { return nil }
        let rendering = try HTMLReportTests.render(html, name: name, chromium: chromium)
        #expect(!rendering.dom.lowercased().contains("<script"), "\(name) holds a script element")
        let pdf = HTMLReportTests.screenshots.appendingPathComponent("\(name).pdf")
        try? FileManager.default.removeItem(at: pdf)
        let printed = try Subprocess.run(
            chromium,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer", "--print-to-pdf=\(pdf.path)",
                HTMLReportTests.screenshots.appendingPathComponent("\(name).html").absoluteString,
            ])
        #expect(printed.status == 0, "\(printed.combinedOutput.suffix(600))")
        let text = try Subprocess.run(pdftotext, ["-layout", pdf.path, "-"])
        #expect(text.status == 0, "\(text.combinedOutput.suffix(600))")
        return text.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The printed text of `html` starts with `answer`, then lists `reasons` before the holder's
    /// section, and holds every one of `shown`.
    static func expectAnswer(
        _ html: String, name: String, answer: String, reasons: [String], shown: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        guard let text = try printedText(html, name: name) else { return }
        #expect(text.hasPrefix(answer + " "), "\(name) begins: \(text.prefix(200))", sourceLocation: sourceLocation)
        let top = text.components(separatedBy: "Holder and document").first ?? ""
        for reason in reasons {
            #expect(
                top.contains(reason), "\(name) lacks '\(reason)' at the top: \(top)", sourceLocation: sourceLocation)
        }
        for phrase in shown {
            #expect(text.contains(phrase), "\(name) never shows '\(phrase)'", sourceLocation: sourceLocation)
        }
    }

    @Test func aCleanDocumentIsAccepted() throws {
        let html = try Self.report(at: Self.inside, printed: Self.printedLines())
        try Self.expectAnswer(
            html, name: "answer-clean", answer: "Accepted", reasons: [],
            shown: [
                "Warnings None.", "Date of birth 1969-08-06 (stored 690806)", "The printed MRZ matches the chip's.",
                "no: valid until 1994-06-23", "Checked at 1993-06-01T12:00:00Z",
                "By the rules of emrtd --strict: accepted only when", "the document is valid at 1993-06-01T12:00:00Z.",
                "the simulator specimen's test CSCA, made for this read (1 certificate)",
            ])
        #expect(!html.contains("answer notAccepted"))
    }

    @Test func anExpiredDocumentIsNotAccepted() throws {
        let html = try Self.report(at: Self.after)
        try Self.expectAnswer(
            html, name: "answer-expired", answer: "Not accepted", reasons: ["the document has expired"],
            shown: [
                "the document expired on 1994-06-23", "yes: expired on 1994-06-23",
                "Date of expiry 1994-06-23 (stored 940623)",
                "No printed MRZ was given: the page was not compared with the chip.",
            ])
    }

    @Test func aPageThatDiffersFromTheChipIsNotAccepted() throws {
        let html = try Self.report(at: Self.inside, printed: Self.printedLines(sex: "M"))
        try Self.expectAnswer(
            html, name: "answer-page", answer: "Not accepted", reasons: ["the printed MRZ differs from the chip's"],
            shown: [
                "the printed MRZ differs from the chip's (DG1) in: sex",
                "The printed MRZ differs from the chip's in: sex.", "sex M F DIFFERS", "nationality UTO UTO yes",
            ])
        // Only the differing field is highlighted.
        #expect(html.components(separatedBy: "class=\"differs\"").count == 2)
    }

    /// A clone whose one proof is Active Authentication (`emrtd read --simulator --no-pace
    /// --no-chip-authentication --chip-fault clone`): the read ends, the chip is denied. (With Chip
    /// Authentication a clone ends the read itself: there is no document to report.)
    @Test func aDeniedChipIsNotAccepted() throws {
        let credentials = Credentials(activeAuthenticationKey: try ActiveAuthenticationKey.generate(named: "rsa:2048"))
        let html = try Self.report(at: Self.inside, credentials: credentials, faults: [.clonedKeys])
        try Self.expectAnswer(
            html, name: "answer-clone", answer: "Not accepted", reasons: ["the chip is denied"],
            shown: ["chip denied", "Active Authentication failed"])
    }

    @Test func aDocumentWithoutATrustedCSCAIsNotAccepted() throws {
        let html = try Self.report(at: Self.inside, trusted: false)
        try Self.expectAnswer(
            html, name: "answer-untrusted", answer: "Not accepted",
            reasons: ["the data is authorityCertificatesNotProvided, not authenticated"],
            shown: ["no CSCA is trusted", "Trusted nothing: no CSCA was trusted"])
    }

    /// Every warning of the read is on the page, in the read's order: the reader's (no CSCA
    /// trusted) before the checks' (the page, then expiry).
    @Test func theWarningsAreTheReadsInOrder() throws {
        let at = try #require(Self.after).date
        let specimen = try Specimen.generate(at: at)
        let reader = try EmrtdReader(config: ReaderConfig(useBuiltInAuthorityCertificates: false), clock: { at })
        let document = try reader.read(
            transport: SimulatedChip(
                configuration: ChipConfiguration(files: specimen.files, credentials: specimen.credentials)),
            accessKey: HTMLReportTests.accessKey)
        let checks = DocumentChecks(
            document: document, printedZone: try parseMrz(lines: Self.printedLines(sex: "M")), at: at)
        let html = HTMLReport.render(document, checks: checks, trust: [], title: "warnings")
        let warnings = document.warnings + checks.warnings
        #expect(warnings.count >= 3)
        let list =
            "<ul id=\"warnings\">" + warnings.map { "<li class=\"warning\">\(HTMLReport.escape($0))</li>" }.joined()
        #expect(html.contains(list))
    }
}
