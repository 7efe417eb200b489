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
        page(name: "emrtd-\(command.name)", summary: command.summary, usage: command.usage, seeAlso: ["emrtd"])
    }

    private static func page(name: String, summary: String, usage: String, seeAlso: [String]) -> String {
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
