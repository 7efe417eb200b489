import Foundation

/// A man page in roff, made from the same text `--help` prints (`emrtd help --man [COMMAND]`),
/// so that the installed manual cannot say something the binary does not.
///
/// The usage texts follow one layout: the synopsis up to the first blank line (`usage: emrtd …`,
/// its continuation lines indented), then paragraphs whose lines start at the margin, and
/// tables or lists indented. Paragraph lines are joined and filled by the pager; indented lines
/// are kept as written.
@MainActor enum ManualPage {
    /// The page of `emrtd` itself: its usage, and every command's page named under SEE ALSO.
    static func general() -> String {
        page(
            name: "emrtd", summary: "read and verify ICAO Doc 9303 electronic travel documents",
            usage: generalUsage(), seeAlso: allCommands.map { "emrtd-\($0.name)" })
    }

    /// The page of one command, `emrtd-NAME(1)`.
    static func command(_ command: any Command.Type) -> String {
        page(
            name: "emrtd-\(command.name)", summary: command.summary, usage: command.usage,
            examples: command.examples, seeAlso: ["emrtd"])
    }

    /// The variables every command reads, for ENVIRONMENT.
    static let environment: KeyValuePairs<String, String> = [
        "EMRTD_CSCA_BUNDLE":
            "the trusted CSCA bundle (PEM); when set, the only one looked at, and a missing file is an error",
        "XDG_DATA_HOME": "where the user's bundle lives (default ~/.local/share): emrtd/csca.pem",
        "XDG_DATA_DIRS": "where the system's bundle lives (default /usr/local/share:/usr/share): emrtd/csca.pem",
    ]

    /// The files every command may read, for FILES: the trusted CSCAs, in the order looked up.
    static let files: KeyValuePairs<String, String> = [
        "~/.local/share/emrtd/csca.pem":
            "the user's CSCA bundle (emrtd masterlist import and emrtd trust update write it outside a checkout)",
        "/usr/share/emrtd/csca.pem":
            "the CSCA bundle the package installs, derived from the signed master lists beside it (*.ml, *.cer)",
        "/usr/share/emrtd/SOURCES": "where each of those master lists comes from, its publisher and checksum",
        "/usr/share/doc/emrtd/NOTICE": "the third-party data and libraries, and the license (Apache-2.0)",
    ]

    private static func page(
        name: String, summary: String, usage: String, examples: [String] = [], seeAlso: [String]
    ) -> String {
        let lines = usage.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let synopsis = lines.prefix { !$0.isEmpty }
        let body = lines.dropFirst(synopsis.count)
        var roff = [
            ".TH \(quoted(name.uppercased())) 1 \"\" \(quoted("emrtd \(version)")) \"emrtd manual\"",
            // Left-aligned and unhyphenated: option and page names stay whole, as typed.
            ".nh", ".ad l",
            ".SH NAME", "\(escape(name)) \\- \(escape(summary))",
            ".SH SYNOPSIS", ".nf",
        ]
        let prefix = "usage: "
        for line in synopsis {
            let text = line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : dropIndent(line, prefix.count)
            roff.append(escape(text))
        }
        roff += [".fi", ".SH DESCRIPTION"]
        var verbatim = false
        var paragraphStarted = false
        for line in body {
            if line.isEmpty {
                if verbatim { roff.append(".fi") }
                verbatim = false
                paragraphStarted = false
                continue
            }
            if !paragraphStarted {
                roff.append(".PP")
                paragraphStarted = true
            }
            let indented = line.first == " "
            if indented != verbatim {
                roff.append(indented ? ".nf" : ".fi")
                verbatim = indented
            }
            roff.append(escape(line))
        }
        if verbatim { roff.append(".fi") }
        if !examples.isEmpty {
            roff += [".SH EXAMPLES", ".nf"] + examples.map(escape) + [".fi"]
        }
        // emrtd(1)'s usage holds the table already.
        if !usage.contains(exitStatusTable) {
            roff += [".SH EXIT STATUS", ".nf"]
            roff += exitStatusTable.split(separator: "\n").dropFirst().map { escape(String($0)) } + [".fi"]
        }
        roff.append(".SH ENVIRONMENT")
        for (variable, meaning) in environment {
            roff += [".TP", ".B \(variable)", escape(meaning)]
        }
        roff.append(".SH FILES")
        for (file, meaning) in files {
            roff += [".TP", ".I \(escape(file))", escape(meaning)]
        }
        // `\-`: a page name does not break at its hyphen.
        roff += [
            ".SH SEE ALSO",
            seeAlso.map { ".BR \($0.replacingOccurrences(of: "-", with: "\\-")) (1)" }.joined(separator: ",\n"),
        ]
        return roff.joined(separator: "\n") + "\n"
    }

    private static func dropIndent(_ line: String, _ count: Int) -> String {
        let spaces = line.prefix { $0 == " " }.count
        return String(line.dropFirst(min(spaces, count)))
    }

    private static func quoted(_ text: String) -> String { "\"\(escape(text))\"" }

    /// A line of text as roff text: backslashes doubled as `\e`, a leading `.` or `'` (a request)
    /// guarded by `\&`, and an option's hyphens as minus signs, so that it can be copied.
    static func escape(_ text: String) -> String {
        var words: [String] = []
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            var escaped = word.replacingOccurrences(of: "\\", with: "\\e")
            if word.drop(while: { "[(`".contains($0) }).hasPrefix("-") {
                escaped = escaped.replacingOccurrences(of: "-", with: "\\-")
            }
            words.append(escaped)
        }
        let line = words.joined(separator: " ")
        return line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : line
    }
}
