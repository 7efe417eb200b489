import ChipSimulator
import Emrtd
import Foundation
import LDS
import MRZ
import Output
import TestSupport
import Testing

/// The HTML report: every chip value escaped, and rendered in a real browser (Debian's headless
/// Chromium) for the specimen and for a hostile document whose DG11 carries markup, a script
/// and an external image — the page is drawn, the face is in it, nothing is fetched and no
/// script runs. The screenshots stay in `.build/report-screenshots/` for a person to look at.
@Suite struct HTMLReportTests {
    static let accessKey = AccessKey.mrz(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")
    /// A host no page of ours may ever reach; the hostile DG11 points at it.
    static let plantedHost = "emrtd-report-test.invalid"
    static let hostileName = "<script>document.title='PWNED'</script><<EVIL"
    /// DG11's telephone is shown as stored (no `<` filler to read), so the markup reaches the page.
    static let hostileScript = "<script>document.title='PWNED'</script>"
    static let hostilePlace = "\"><img src=\"http://\(plantedHost)/x.png\" onerror=\"document.title='PWNED'\">"
    static let screenshots = Prerequisites.repositoryRoot.appendingPathComponent(".build/report-screenshots")

    /// A read of `specimen` over BAC with the debug log on (the report's APDU timeline).
    static func read(_ specimen: Specimen) throws -> TravelDocument {
        let reader = try EmrtdReader(
            config: ReaderConfig(
                useBuiltInAuthorityCertificates: false,
                authorityCertificates: [Data(specimen.countrySigningCertificate)],
                debug: true))
        return try reader.read(
            transport: SimulatedChip(
                configuration: ChipConfiguration(files: specimen.files, credentials: specimen.credentials)),
            accessKey: accessKey)
    }

    /// The report of `document` with no printed page, checked now, trusting the specimen's CSCA.
    static func page(_ document: TravelDocument, title: String = "emrtd read") -> String {
        HTMLReport.render(
            document, checks: DocumentChecks(document: document, printedZone: nil, at: Date()),
            trust: [TrustSource(.specimenCSCA, path: nil, certificates: 1)], title: title)
    }

    /// The rich specimen with a DG11 written to break out of the page, signed again.
    static func hostileSpecimen() throws -> Specimen {
        let specimen = try Specimen.generate(rich: true)
        var files = specimen.files
        files[dataGroup: 11] =
            AdditionalPersonalDetails(
                fullNameText: hostileName, placeOfBirthText: hostilePlace, telephoneText: hostileScript,
                professionText: "a&b<i>"
            ).encoded()
        return try Specimen.signing(files, credentials: specimen.credentials)
    }

    @Test func everyChipValueIsEscaped() throws {
        let document = try Self.read(try Self.hostileSpecimen())
        let page = Self.page(document)
        #expect(!page.lowercased().contains("<script"))
        #expect(!page.contains("<img src=\"http://"))
        #expect(!page.contains("<i>"))
        #expect(page.contains("&lt;script&gt;document.title=&#39;PWNED&#39;&lt;/script&gt;"))
        #expect(page.contains("a&amp;b i&gt;"))
        #expect(page.contains("Content-Security-Policy") && page.contains("default-src 'none'"))
        #expect(HTMLReport.escape("<a href=\"x\">'&'</a>") == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
    }

    @Test func theReportShowsTheRead() throws {
        let specimen = try Specimen.generate(rich: true)
        let page = Self.page(try Self.read(specimen))
        #expect(page.contains("<img class=\"portrait\" id=\"face\" alt=\"face (DG2)\" src=\"data:image/jpeg;base64,"))
        #expect(page.contains("ANNA MARIA ERIKSSON"))
        #expect(page.contains("badge authenticated"))
        for group in ["DG1", "DG2", "DG5", "DG7", "DG11", "DG12", "DG13", "DG16"] {
            #expect(page.contains("<td>\(group)</td>"), "no hash row for \(group)")
        }
        #expect(page.contains("Document Signer") && page.contains("Country Signing CA"))
        #expect(page.contains("APDU timeline") && page.contains("@page{size:A4"))
        // The timeline shows a READ BINARY's plain form beside its protected one.
        #expect(page.contains("plain &gt; 00 B0 ") && page.contains("READ BINARY (SM)"))
        #expect(page.contains("signature (DG7)"))
    }

    /// What one headless Chromium run of a page gave: its DOM after load, the URLs it requested
    /// (from the network log) and the screenshot's path.
    struct Rendering {
        let dom: String
        let requestedURLs: [String]
        let screenshot: URL
    }

    /// Chromium's own background services (updates, time, accounts): requests the browser makes
    /// whatever page it shows; every other request came from the page.
    static func isBrowserService(_ url: String) -> Bool {
        guard let host = URL(string: url)?.host else { return false }
        return ["google.com", "googleapis.com", "gvt1.com", "gstatic.com"].contains {
            host == $0 || host.hasSuffix("." + $0)
        }
    }

    static func render(_ html: String, name: String, chromium: String) throws -> Rendering {
        try FileManager.default.createDirectory(at: screenshots, withIntermediateDirectories: true)
        let page = screenshots.appendingPathComponent("\(name).html")
        let screenshot = screenshots.appendingPathComponent("\(name).png")
        let netLog = screenshots.appendingPathComponent("\(name)-netlog.json")
        try Data(html.utf8).write(to: page)
        try? FileManager.default.removeItem(at: screenshot)
        try? FileManager.default.removeItem(at: netLog)
        let common = [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            // Names resolve nowhere: a request is logged, and fails, but never leaves the machine.
            "--host-resolver-rules=MAP * ~NOTFOUND",
        ]
        let shot = try Subprocess.run(
            chromium,
            common + [
                "--window-size=1000,1400", "--screenshot=\(screenshot.path)", "--log-net-log=\(netLog.path)",
                page.absoluteString,
            ])
        #expect(shot.status == 0, "\(shot.combinedOutput.suffix(600))")
        let dom = try Subprocess.run(chromium, common + ["--dump-dom", page.absoluteString])
        #expect(dom.status == 0, "\(dom.combinedOutput.suffix(600))")
        let log = (try? String(contentsOf: netLog, encoding: .utf8)) ?? ""
        let urls = log.components(separatedBy: "\"url\":\"").dropFirst().compactMap { $0.split(separator: "\"").first }
            .map(String.init)
        return Rendering(dom: dom.output, requestedURLs: urls, screenshot: screenshot)
    }

    /// The screenshot's share of non-white pixels and the dark pixels inside the portrait's box
    /// (the synthetic face's hair and shoulders), measured by Pillow. The box is found by its grey
    /// border at the body's left padding, below the answer's coloured banner (whose red is dark in
    /// one channel only, so it never counts).
    static func measure(_ screenshot: URL, python: String) throws -> (inked: Double, darkInPortrait: Int) {
        let script = """
            import sys
            from PIL import Image
            image = Image.open(sys.argv[1]).convert("RGB")
            width, height = image.size
            pixels = image.load()
            inked = sum(1 for x in range(0, width, 4) for y in range(0, height, 4) if min(pixels[x, y]) < 250)
            def grey(p):
                return all(abs(c - 153) < 12 for c in p)
            top = next((y for y in range(height - 200) if grey(pixels[16, y]) and grey(pixels[96, y])), 0)
            dark = sum(1 for x in range(17, 177) for y in range(top + 1, top + 201) if max(pixels[x, y]) < 90)
            print(inked / ((width // 4) * (height // 4)), dark)
            """
        let result = try Subprocess.run(python, ["-c", script, screenshot.path])
        let figures = result.output.split(whereSeparator: \.isWhitespace)
        guard result.status == 0, figures.count == 2, let inked = Double(figures[0]), let dark = Int(figures[1]) else {
            Issue.record("Pillow could not measure \(screenshot.path): \(result.combinedOutput)")
            return (0, 0)
        }
        return (inked, dark)
    }

    @Test func chromiumDrawsTheReportAndFetchesNothing() throws {
        guard let chromium = Prerequisites.tool("chromium", package: "chromium"),
            let python = Prerequisites.tool("python3", package: "python3"),
            Prerequisites.package("python3-pil")
        else { return }
        // The detectors first: a page of our own that fetches and scripts must show both.
        let control = try Self.render(
            "<html><head><title>control</title></head><body><img src=\"http://\(Self.plantedHost)/c.png\">"
                + "<script>document.title='RAN'</script></body></html>",
            name: "control", chromium: chromium)
        #expect(control.requestedURLs.contains { $0.contains(Self.plantedHost) }, "the network log sees no fetch")
        #expect(control.dom.contains("<title>RAN</title>"), "the DOM dump sees no script")

        let specimen = try Specimen.generate(rich: true)
        let withoutFace = try Self.read(specimen)
        var faceless = withoutFace
        faceless.encodedIdentificationFeaturesFace = .empty
        let pages = [
            ("specimen", Self.page(try Self.read(specimen), title: "specimen")),
            ("hostile", Self.page(try Self.read(try Self.hostileSpecimen()), title: "hostile")),
            ("no-face", Self.page(faceless, title: "no face")),
        ]
        var darkInPortrait: [String: Int] = [:]
        for (name, html) in pages {
            let rendering = try Self.render(html, name: name, chromium: chromium)
            let fetched = rendering.requestedURLs.filter { !$0.hasPrefix("file:") && !Self.isBrowserService($0) }
            #expect(fetched.isEmpty, "\(name) fetched \(fetched)")
            #expect(
                rendering.dom.contains("<title>\(name == "no-face" ? "no face" : name)</title>"),
                "\(name): a script ran")
            #expect(!rendering.dom.lowercased().contains("<script"), "\(name) holds a script element")
            let (inked, dark) = try Self.measure(rendering.screenshot, python: python)
            #expect(inked > 0.05, "\(name) looks blank (\(inked) inked)")
            darkInPortrait[name] = dark
        }
        let drawn = darkInPortrait["specimen"] ?? 0
        #expect(drawn > 3000, "no face drawn in the specimen's portrait box (\(drawn) dark pixels)")
        #expect((darkInPortrait["hostile"] ?? 0) > 3000, "no face drawn in the hostile report")
        #expect((darkInPortrait["no-face"] ?? Int.max) < drawn / 4, "the measure does not tell a face from none")
        // Printed: A4 pages (595 × 842 points).
        let pdf = Self.screenshots.appendingPathComponent("specimen.pdf")
        try? FileManager.default.removeItem(at: pdf)
        let printed = try Subprocess.run(
            chromium,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer", "--print-to-pdf=\(pdf.path)",
                Self.screenshots.appendingPathComponent("specimen.html").absoluteString,
            ])
        #expect(printed.status == 0, "\(printed.combinedOutput.suffix(600))")
        let document = String(decoding: (try? Data(contentsOf: pdf)) ?? Data(), as: UTF8.self)
        #expect(document.hasPrefix("%PDF"))
        #expect(document.contains("/MediaBox [0 0 594.9") || document.contains("/MediaBox [0 0 595"), "not A4")
        print("report screenshots: \(Self.screenshots.path)")
    }
}
