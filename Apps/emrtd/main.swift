import Emrtd
import Foundation

/// The subcommands `emrtd` knows, in the order `--help` lists them.
let allCommands: [any Command.Type] = [
    MRZCommand.self, ParseCommand.self, ReadCommand.self, SimulateCommand.self, VerifyCommand.self, CertsCommand.self,
    MasterListCommand.self, TrustCommand.self, ReadersCommand.self, DumpCommand.self, ServeCommand.self,
    RelayCommand.self, TokenCommand.self, ReportCommand.self, CVCCommand.self, SealCommand.self,
    StationCommand.self,
]

/// `Emrtd`'s, the one version the CLI, libemrtd and the packages share.
let version = "\(emrtdReleaseVersion)"

func printError(_ message: String) {
    var standardError = StandardError()
    print(message, to: &standardError)
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) { FileHandle.standardError.write(Data(string.utf8)) }
}

@MainActor func generalUsage() -> String {
    let width = allCommands.map { $0.name.count }.max() ?? 0
    let lines = allCommands.map { command in
        "  \(command.name)\(String(repeating: " ", count: width - command.name.count))  \(command.summary)"
    }
    return """
        usage: emrtd COMMAND [OPTIONS]
               emrtd --help | --version

        A reader for ICAO Doc 9303 electronic travel documents.

        commands:
        \(lines.joined(separator: "\n"))

        `emrtd COMMAND --help` describes one command.

        \(InputLimit.summary)

        files written (dumps, reports, bundles, images, keys): each to a temporary file beside it,
        renamed into place (a failure keeps the old file); a dump's directory is replaced whole; a
        symbolic link, a device or a fifo where a file is to be written is refused, not replaced.

        \(exitStatusTable)
        """
}

/// The one table of exit statuses: every command returns these and only these, and its usage
/// says which apply to it.
let exitStatusTable = """
    exit status (every command):
      0  done: parsed, read, verified, imported
      1  failed: a file or input that cannot be read or is not what was asked for, a read that
         failed, no reader or card
      2  wrong command line
      3  checked and not accepted: a verdict other than authenticated (verify, masterlist, seal),
         a check digit that fails or an impossible date (mrz), a --strict requirement not met
         (read, verify, seal), a master list that does not verify against its root, a file with
         nothing to import, an import that would shrink the bundle (masterlist)
    """

/// `emrtd help [COMMAND]`, and the forms a package build runs to make its manual and completions
/// from the same text (left out of the usage, which is for people): `help --man [COMMAND]` prints
/// the roff page, `help --completion bash|zsh` the completion script.
@MainActor func help(_ arguments: [String]) -> Int32 {
    func command(_ name: String) -> (any Command.Type)? {
        if let command = allCommands.first(where: { $0.name == name }) { return command }
        printError("emrtd help: unknown command '\(name)' (see 'emrtd --help')")
        return nil
    }
    let first = arguments.first
    if arguments.isEmpty {
        print(generalUsage())
    } else if first == "--man", arguments.count <= 2 {
        if arguments.count == 1 {
            print(ManualPage.general(), terminator: "")
        } else {
            guard let command = command(arguments[1]) else { return 2 }
            print(ManualPage.command(command), terminator: "")
        }
    } else if first == "--completion", arguments.count == 2 {
        guard let shell = ShellCompletion.Shell(rawValue: arguments[1]) else {
            printError("emrtd help: --completion takes bash or zsh")
            return 2
        }
        print(ShellCompletion.script(for: shell), terminator: "")
    } else if let first, arguments.count == 1, !first.hasPrefix("-") {
        guard let command = command(first) else { return 2 }
        print(command.usage)
    } else {
        printError("emrtd help: usage: emrtd help [COMMAND] (see 'emrtd --help')")
        return 2
    }
    return 0
}

@MainActor func runMain() -> Int32 {
    var arguments = Array(CommandLine.arguments.dropFirst())
    guard let first = arguments.first else {
        printError(generalUsage())
        return 2
    }
    switch first {
    case "--help", "-h":
        print(generalUsage())
        return 0
    case "help":
        return help(Array(arguments.dropFirst()))
    case "--version":
        print("emrtd \(version)")
        return 0
    default:
        break
    }
    guard let command = allCommands.first(where: { $0.name == first }) else {
        printError("emrtd: unknown command '\(first)' (see 'emrtd --help')")
        return 2
    }
    arguments.removeFirst()
    var reader = ArgumentReader(arguments)
    if reader.flag("--help") || reader.flag("-h") {
        print(command.usage)
        return 0
    }
    if command.printsOnlyJSON { _ = reader.flag("--json") }
    do {
        return try command.run(&reader)
    } catch let error as UsageError {
        printError("emrtd \(command.name): \(error.message) (see 'emrtd \(command.name) --help')")
        return 2
    } catch let error as CommandFailure {
        printError("emrtd \(command.name): \(error.message)")
        return 1
    } catch {
        printError("emrtd \(command.name): \(error)")
        return 1
    }
}

exit(runMain())
