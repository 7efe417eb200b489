import Foundation
import TestSupport
import Testing

/// The manual and the shell completions the Debian package installs (`emrtd help --man`,
/// `emrtd help --completion`): made from the usage text `--help` prints, so every command and
/// every option it names is in them, and nothing another command's text mentions.
@Suite struct ManualAndCompletionCLITests {
    static func commands(_ emrtd: String) throws -> [String] {
        let help = try Subprocess.run(emrtd, ["--help"]).output
        let lines = help.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "commands:") else { return [] }
        return lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap {
            $0.split(separator: " ").first.map(String.init)
        }
    }

    /// The `--name` words of a text, as roff writes them or as typed.
    static func options(_ text: String, roff: Bool = false) throws -> Set<String> {
        let dash = roff ? "\\\\-" : "-"
        let expression = try NSRegularExpression(pattern: "\(dash)\(dash)[a-z][a-z0-9]*(?:\(dash)[a-z0-9]+)*")
        let range = NSRange(text.startIndex..., in: text)
        return Set(
            expression.matches(in: text, range: range).compactMap { Range($0.range, in: text) }.map {
                text[$0].replacingOccurrences(of: "\\-", with: "-")
            })
    }

    @Test func everyCommandHasAPageSayingWhatItsHelpSays() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let commands = try Self.commands(emrtd)
        #expect(commands.count >= 16 && commands.contains("verify") && commands.contains("serve"))
        let general = try Subprocess.run(emrtd, ["help", "--man"])
        #expect(general.status == 0)
        #expect(general.output.hasPrefix(".TH \"EMRTD\" 1 "))
        for command in commands {
            #expect(general.output.contains(".BR emrtd\\-\(command) (1)"), "emrtd(1) does not name emrtd-\(command)(1)")
            let usage = try Subprocess.run(emrtd, [command, "--help"]).output
            let page = try Subprocess.run(emrtd, ["help", "--man", command])
            #expect(page.status == 0, "\(command): \(page.errorOutput)")
            #expect(page.output.hasPrefix(".TH \"EMRTD-\(command.uppercased())\" 1 "))
            #expect(page.output.contains(".SH SYNOPSIS\n.nf\nemrtd \(command)"), "\(command): no synopsis")
            for section in ["EXIT STATUS", "ENVIRONMENT", "FILES"] {
                #expect(page.output.contains(".SH \(section)\n"), "\(command): no \(section)")
            }
            #expect(page.output.contains("EMRTD_CSCA_BUNDLE"), "\(command)")
            // An installed page names no path of a source checkout as the place of its trust.
            if command == "read" || command == "report" { #expect(!page.output.contains("masterlist/csca.pem")) }
            // The page is the usage and the one-line summary `emrtd --help` lists (its NAME line).
            let help = try Subprocess.run(emrtd, ["--help"]).output
            let summary = help.components(separatedBy: "\n").first { $0.hasPrefix("  \(command) ") } ?? ""
            // The page's EXIT STATUS is emrtd --help's table.
            let table = help.range(of: "exit status (every command):").map { String(help[$0.lowerBound...]) } ?? ""
            #expect(
                try Self.options(page.output, roff: true)
                    == Self.options(usage).union(Self.options(summary)).union(Self.options(table)),
                "\(command): options differ")
            // No line of text is taken for a request.
            for line in page.output.split(separator: "\n") where line.hasPrefix(".") || line.hasPrefix("'") {
                #expect(
                    ["TH", "nh", "ad", "SH", "PP", "nf", "fi", "BR", "TP", "B ", "I "].contains {
                        line.dropFirst().hasPrefix($0)
                    },
                    "\(command): \(line)")
            }
        }
        for command in ["read", "verify", "report"] {
            let page = try Subprocess.run(emrtd, ["help", "--man", command]).output
            #expect(page.contains(".SH EXAMPLES\n.nf\n# "), "\(command): no EXAMPLES")
        }
        #expect(
            try Subprocess.run(emrtd, ["help", "verify"]).output == Subprocess.run(emrtd, ["verify", "--help"]).output)
        #expect(try Subprocess.run(emrtd, ["help", "--man", "frobnicate"]).status == 2)
        #expect(try Subprocess.run(emrtd, ["help", "--completion", "fish"]).status == 2)
    }

    /// Every page as groff renders it for man: no warning (an unknown request, a bad escape).
    @Test func pagesRenderWithoutWarnings() throws {
        guard let emrtd = CLITests.emrtd(), let groff = Prerequisites.tool("groff", package: "groff") else { return }
        for command in try [""] + Self.commands(emrtd) {
            let page = try Subprocess.run(emrtd, ["help", "--man"] + (command.isEmpty ? [] : [command])).output
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("emrtd-man-\(UUID()).1")
            try page.write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            let rendered = try Subprocess.run(groff, ["-man", "-Tutf8", "-ww", "-k", "-P-cbou", file.path])
            #expect(rendered.status == 0 && rendered.errorOutput.isEmpty, "\(command): \(rendered.errorOutput)")
            #expect(rendered.output.contains("DESCRIPTION"))
        }
    }

    /// The bash completion as bash runs it.
    @Test func bashCompletesCommandsOptionsAndValues() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let script = try Subprocess.run(emrtd, ["help", "--completion", "bash"])
        #expect(script.status == 0)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("emrtd-completion-\(UUID())")
        try script.output.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        func complete(_ words: String...) throws -> [String] {
            let run = try Subprocess.run(
                "/bin/bash",
                [
                    "-c",
                    "source \"$0\"; COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); _emrtd; printf '%s\\n' \"${COMPREPLY[@]}\"",
                    file.path,
                ] + words)
            #expect(run.status == 0, "\(run.errorOutput)")
            return run.output.split(separator: "\n").map(String.init).sorted()
        }
        #expect(try complete("emrtd", "") == (Self.commands(emrtd) + ["--help", "--version"]).sorted())
        #expect(try complete("emrtd", "verify", "--c") == ["--challenge", "--crl", "--csca"])
        #expect(try complete("emrtd", "read", "--access", "") == ["auto", "bac", "pace"])
        #expect(try complete("emrtd", "relay", "--files", "minimal") == ["minimal", "minimalKYC"])
        #expect(try Set(complete("emrtd", "trust", "")).isSuperset(of: ["build", "check", "list", "show", "update"]))
        // The DIR of `--simulator [DIR]` is a directory; --at's value is typed.
        #expect(try complete("emrtd", "verify", "--at", "") == [])
        // dump takes read's options ("any option of emrtd read"), not verify's, which its text mentions.
        let dump = try complete("emrtd", "dump", "--")
        #expect(dump.contains("--challenge") && dump.contains("--out") && !dump.contains("--dir"))
        // Every option of the synopsis is offered, and nothing the usage does not name (dump: or read's).
        let read = try Self.options(Subprocess.run(emrtd, ["read", "--help"]).output)
        for command in try Self.commands(emrtd) {
            let usage = try Subprocess.run(emrtd, [command, "--help"]).output
            let synopsis = try Self.options(usage.components(separatedBy: "\n\n")[0])
            let named = try Self.options(usage).union(["--help"]).union(command == "dump" ? read : [])
            let offered = Set(try complete("emrtd", command, "--"))
            #expect(offered.isSuperset(of: synopsis), "\(command): \(synopsis.subtracting(offered)) not offered")
            #expect(offered.isSubset(of: named), "\(command): \(offered.subtracting(named)) not in its usage")
        }
    }
}
