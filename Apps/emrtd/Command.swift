/// One `emrtd` subcommand. Add a type conforming to this in `Commands/` and
/// list it in `allCommands` (main.swift).
protocol Command {
    /// The word after `emrtd`.
    static var name: String { get }
    /// One line for `emrtd --help`.
    static var summary: String { get }
    /// The synopsis printed with usage errors and `emrtd NAME --help`.
    static var usage: String { get }
    /// Runs with the arguments after the subcommand's name; returns the exit status.
    static func run(_ arguments: inout ArgumentReader) throws -> Int32
}
