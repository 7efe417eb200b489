/// What a shell can complete of one command, read from its usage text (the one text `--help`
/// prints), so that the completions follow the help rather than a list kept beside it.
struct CommandLineSurface {
    /// What an option's value is, told by the placeholder the usage writes after it.
    enum Value {
        /// A flag: no value.
        case none
        /// A file (`FILE`, `FILE.ml`, `CERT`, `PNG|JPEG`…).
        case file
        /// A directory (`DIR`, `DIR|-`).
        case directory
        /// One of the words the usage lists (`auto|pace|bac`).
        case choices([String])
        /// Something to type (`N`, `ISO8601`, `CAN`…).
        case text
    }

    /// The words after the command that name a form of it (`trust list`, `cvc make-pki`).
    var subcommands: [String] = []
    /// Every option the usage names, in the order it first names them, with its value, and `--help`.
    var options: [(name: String, value: Value)] = []

    /// The surface of `command`; a usage that says `[any option of emrtd OTHER]` takes OTHER's too.
    init(_ command: any Command.Type, among commands: [any Command.Type]) {
        let text = command.usage
        let synopsis = Self.synopsis(text)
        var seen: Set<String> = []
        for (index, line) in synopsis.enumerated() {
            let words = Self.words(index == 0 ? String(line.dropFirst("usage:".count)) : line)
            if words.count > 2, words[0] == "emrtd", words[1] == command.name, Self.isSubcommand(words[2]) {
                if !subcommands.contains(words[2]) { subcommands.append(words[2]) }
            }
        }
        let synopsisLength = Self.words(synopsis.joined(separator: "\n")).count
        let allWords = Self.words(text)
        for (position, word) in Self.ownOptions(allWords, command: command.name, among: commands) {
            guard !seen.contains(word) else { continue }
            seen.insert(word)
            let inSynopsis = position < synopsisLength
            let next = position + 1 < allWords.count ? allWords[position + 1] : ""
            // `[--no-render]`, `--watch)`: a bracket or a stop right after the name ends a flag.
            let closed = !allWords[position].hasSuffix(word)
            options.append((word, closed ? .none : Self.value(after: next, inSynopsis: inSynopsis)))
        }
        if !seen.contains("--help") { options.append(("--help", .none)) }
        let marker = "any option of emrtd "
        if let range = text.range(of: marker),
            let other = commands.first(where: {
                text[range.upperBound...].hasPrefix($0.name) && $0.name != command.name
            })
        {
            for option in Self(other, among: []).options where !seen.contains(option.name) {
                seen.insert(option.name)
                options.append(option)
            }
        }
    }

    /// The synopsis: the usage's lines up to the first blank one.
    private static func synopsis(_ text: String) -> [String] {
        Array(text.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }.map(String.init))
    }

    private static func words(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
    }

    /// `--name` without the brackets, parentheses and punctuation around it; nil for any other word.
    static func optionName(_ word: String) -> String? {
        let trimmed = word.drop { "[(`".contains($0) }
        guard trimmed.hasPrefix("--"), trimmed.count > 2 else { return nil }
        let name = trimmed.prefix { $0.isLetter || $0.isNumber || $0 == "-" }
        guard name.count > 2, name.dropFirst(2).first?.isLetter == true else { return nil }
        return String(name)
    }

    /// The options a usage names as its command's own, with their word positions: an option
    /// right after `emrtd OTHER` (`emrtd verify --dir DIR, …` in another command's text) is
    /// OTHER's, up to the end of that phrase.
    private static func ownOptions(_ words: [String], command: String, among commands: [any Command.Type])
        -> [(Int, String)]
    {
        var found: [(Int, String)] = []
        var inOtherCommand = false
        for (position, word) in words.enumerated() {
            if position > 0, words[position - 1].hasSuffix("emrtd") {
                let name = word.prefix { $0.isLetter || $0 == "-" }
                inOtherCommand = name != command && commands.contains { $0.name == name }
            }
            if inOtherCommand {
                if word.last.map({ ",.;:)`".contains($0) }) == true
                    || (optionName(word) == nil && word.first?.isLowercase == true && word != "emrtd"
                        && !commands.contains { $0.name == word })
                {
                    inOtherCommand = false
                }
                continue
            }
            if let name = optionName(word) { found.append((position, name)) }
        }
        return found
    }

    private static func isSubcommand(_ word: String) -> Bool {
        word.first?.isLowercase == true && word.allSatisfy { $0.isLowercase || $0 == "-" }
    }

    /// The value an option takes, told by the word after it. In the synopsis a lowercase word is
    /// the one value allowed (`--require authenticated`); in the prose it is the sentence going on.
    private static func value(after next: String, inSynopsis: Bool) -> Value {
        let word = String(next.drop { "[(".contains($0) })
        let placeholder = word.prefix { !"[])…,;:.".contains($0) }
        let trimmed = String(placeholder)
        guard !trimmed.isEmpty, !trimmed.hasPrefix("-"), trimmed != "|" else { return .none }
        let alternatives = trimmed.split(separator: "|").map(String.init)
        guard let first = alternatives.first else { return .none }
        if first.first?.isUppercase == true, first.allSatisfy({ !$0.isLowercase }) {
            if first.hasPrefix("DIR") { return .directory }
            if ["FILE", "CERT", "PNG", "OUT", "DUMP"].contains(where: { first.hasPrefix($0) }) { return .file }
            return .text
        }
        if alternatives.count > 1 || inSynopsis, alternatives.allSatisfy({ $0.allSatisfy(Self.isChoiceCharacter) }) {
            return .choices(alternatives)
        }
        return .none
    }

    private static func isChoiceCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "-" || character == ","
    }
}
