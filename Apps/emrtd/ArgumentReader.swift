/// The whole of the CLI's argument parsing: a subcommand takes what it knows
/// out of the argument list, and whatever is left over is a usage error.
///
/// No outside package can be fetched here, so this replaces swift-argument-parser;
/// a new option costs one call in the subcommand that owns it.
///
/// As a user expects: `--name=value` is `--name value`; after `--` every argument is positional,
/// even one starting with `-`; a flag given twice is given.
struct ArgumentReader {
    private var remaining: [String]
    /// The arguments after `--`.
    private let afterSeparator: [String]

    init(_ arguments: [String]) {
        let separator = arguments.firstIndex(of: "--") ?? arguments.endIndex
        remaining = arguments[..<separator].flatMap { argument -> [String] in
            guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return [argument] }
            return [String(argument[..<equals]), String(argument[argument.index(after: equals)...])]
        }
        afterSeparator = Array(arguments[separator...].dropFirst())
    }

    /// Whether `--name` is still among the arguments (nothing is removed).
    func contains(_ name: String) -> Bool { remaining.contains(name) }

    /// Whether `--name` was given, once or more (every occurrence is removed).
    mutating func flag(_ name: String) -> Bool {
        let count = remaining.count
        remaining.removeAll { $0 == name }
        return remaining.count != count
    }

    /// The value after `--name`, when given once.
    mutating func option(_ name: String) throws(UsageError) -> String? {
        let all = try options(name)
        guard all.count <= 1 else { throw UsageError("\(name) may be given only once") }
        return all.first
    }

    /// Every value of a repeatable `--name VALUE` option, in order.
    mutating func options(_ name: String) throws(UsageError) -> [String] {
        var all: [String] = []
        while let group = try take(name, count: 1) { all += group }
        return all
    }

    /// The `count` values after `--name`, e.g. `--mrz DOC DOB DOE`, given once.
    mutating func values(_ name: String, count: Int) throws(UsageError) -> [String]? {
        let values = try take(name, count: count)
        guard !remaining.contains(name) else { throw UsageError("\(name) may be given only once") }
        return values
    }

    /// A whole number within `range` after `--name` (digits only: no sign, no space), given once;
    /// anything else, a number too large for any use included, is a usage error, never a trap.
    mutating func integer(_ name: String, in range: ClosedRange<Int>, unit: String = "") throws(UsageError) -> Int? {
        guard let text = try option(name) else { return nil }
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int(text),
            range.contains(value)
        else {
            let what = unit.isEmpty ? "" : " \(unit)"
            throw UsageError("\(name) takes \(range.lowerBound) to \(range.upperBound)\(what), not '\(text)'")
        }
        return value
    }

    /// Removes the first `--name` and the `count` values after it. A value may begin with one
    /// `-` (`--validation-id -abc`); only one beginning with `--` is taken for the next option.
    private mutating func take(_ name: String, count: Int) throws(UsageError) -> [String]? {
        guard let index = remaining.firstIndex(of: name) else { return nil }
        let values = remaining.dropFirst(index + 1).prefix(count)
        guard values.count == count, !values.contains(where: { $0.hasPrefix("--") }) else {
            throw UsageError("\(name) takes \(count) value\(count == 1 ? "" : "s")")
        }
        remaining.removeSubrange(index...(index + count))
        return Array(values)
    }

    /// The values after `--name` up to the next option, e.g. `--mrz-lines L1 L2 L3`;
    /// `[]` when the option is given without values, nil when it is absent.
    mutating func variadic(_ name: String) -> [String]? {
        guard let index = remaining.firstIndex(of: name) else { return nil }
        let values = remaining.dropFirst(index + 1).prefix { !Self.isOption($0) }
        remaining.removeSubrange(index...(index + values.count))
        return Array(values)
    }

    /// The positional arguments, at most `limit` of them (a stray one is named, not dropped);
    /// any option still left is unknown to the subcommand.
    mutating func positionals(atMost limit: Int = .max) throws(UsageError) -> [String] {
        if let unknown = remaining.first(where: Self.isOption) {
            throw UsageError("unknown option \(unknown)")
        }
        let all = remaining + afterSeparator
        remaining = []
        if all.count > limit { throw UsageError("unexpected argument '\(all[limit])'") }
        return all
    }

    /// Nothing may be left: the first stray argument is named.
    mutating func noPositionals() throws(UsageError) { _ = try positionals(atMost: 0) }

    /// `--listen ADDRESS:PORT` (`serve`, `station`), an IPv6 address in brackets. The address
    /// itself is checked when bound (an invalid one is exit 1, as one that is not local or in
    /// use); only a malformed option or an IPv6 address without its brackets is a usage error.
    static func listenAddress(_ listen: String, examplePort: Int) throws(UsageError) -> (host: String, port: Int) {
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]),
            (0...65535).contains(port)
        else {
            throw UsageError(
                "--listen takes ADDRESS:PORT, e.g. 127.0.0.1:\(examplePort) or [::1]:\(examplePort)")
        }
        let address = listen[..<colon]
        let bracketed = address.hasPrefix("[") && address.hasSuffix("]") && address.count >= 2
        guard bracketed || !address.contains(":") else {
            throw UsageError("--listen takes an IPv6 address in brackets, e.g. [::1]:\(examplePort)")
        }
        return (String(bracketed ? address.dropFirst().dropLast() : address), port)
    }

    /// `--x` and `-x` are options; a lone `-` (stdin) and negative numbers are not.
    private static func isOption(_ argument: String) -> Bool {
        argument.hasPrefix("-") && argument.count > 1 && !(argument.dropFirst().first?.isNumber ?? false)
    }
}

/// A wrong command line: the CLI prints the message and where to find the usage, one line, exit 2.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// A failure of the work itself (bad input file, wrong MRZ, no reader): one line, exit 1.
struct CommandFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
