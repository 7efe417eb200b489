/// One `emrtd` subcommand. Add a type conforming to this in `Commands/` and
/// list it in `allCommands` (main.swift).
protocol Command {
    /// The word after `emrtd`.
    static var name: String { get }
    /// One line for `emrtd --help`.
    static var summary: String { get }
    /// The synopsis printed with usage errors and `emrtd NAME --help`.
    static var usage: String { get }
    /// Whether the command prints nothing but JSON: it then takes `--json` too (and ignores it),
    /// so that a script may pass `--json` to every command.
    static var printsOnlyJSON: Bool { get }
    /// Command lines that run as written, for the man page's EXAMPLES (each a comment line, `# …`,
    /// then the command).
    static var examples: [String] { get }
    /// Runs with the arguments after the subcommand's name; returns the exit status.
    static func run(_ arguments: inout ArgumentReader) throws -> Int32
}

extension Command {
    static var printsOnlyJSON: Bool { false }
    static var examples: [String] { [] }
}
