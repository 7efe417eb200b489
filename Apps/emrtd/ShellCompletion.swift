/// Bash and zsh completion scripts (`emrtd help --completion bash|zsh`), made from `allCommands`
/// and each command's usage text, so that a new command or option completes without a second list.
enum ShellCompletion {
    enum Shell: String, CaseIterable {
        case bash, zsh
    }

    @MainActor static func script(for shell: Shell) -> String {
        let surfaces = allCommands.map { (command: $0, surface: CommandLineSurface($0, among: allCommands)) }
        switch shell {
        case .bash: return bash(surfaces)
        case .zsh: return zsh(surfaces)
        }
    }

    private static func bash(_ surfaces: [(command: any Command.Type, surface: CommandLineSurface)]) -> String {
        let commands = surfaces.map { $0.command.name } + ["--help", "--version"]
        var values: [String] = []
        var words: [String] = []
        for (command, surface) in surfaces {
            for (name, value) in surface.options {
                let pattern = "\"\(command.name) \(name)\""
                switch value {
                case .none: continue
                case .file:
                    values.append("        \(pattern)) mapfile -t COMPREPLY < <(compgen -f -- \"$cur\"); return ;;")
                case .directory:
                    values.append("        \(pattern)) mapfile -t COMPREPLY < <(compgen -d -- \"$cur\"); return ;;")
                case .choices(let choices):
                    values.append(
                        "        \(pattern)) mapfile -t COMPREPLY < <(compgen -W '\(choices.joined(separator: " "))' -- \"$cur\"); return ;;"
                    )
                case .text: values.append("        \(pattern)) return ;;")
                }
            }
            let options = surface.options.map { $0.name }
            words.append(
                "        \(command.name)) subcommands='\(surface.subcommands.joined(separator: " "))'"
                    + " options='\(options.joined(separator: " "))' ;;")
        }
        return """
            # bash completion for emrtd: made by `emrtd help --completion bash` from each command's usage
            _emrtd() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} subcommands options
                if ((COMP_CWORD == 1)); then
                    mapfile -t COMPREPLY < <(compgen -W '\(commands.joined(separator: " "))' -- "$cur")
                    return
                fi
                case "${COMP_WORDS[1]} $prev" in
            \(values.joined(separator: "\n"))
                esac
                case ${COMP_WORDS[1]} in
            \(words.joined(separator: "\n"))
                    *) return ;;
                esac
                if [[ $cur == -* ]]; then
                    mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
                else
                    mapfile -t COMPREPLY < <(compgen -W "$subcommands" -- "$cur"; compgen -f -- "$cur")
                fi
            }
            complete -o filenames -F _emrtd emrtd

            """
    }

    private static func zsh(_ surfaces: [(command: any Command.Type, surface: CommandLineSurface)]) -> String {
        var cases: [String] = []
        for (command, surface) in surfaces {
            var specifications = surface.options.map { name, value -> String in
                switch value {
                case .none: return "'*\(name)'"
                case .file: return "'*\(name):file:_files'"
                case .directory: return "'*\(name):directory:_files -/'"
                case .choices(let choices): return "'*\(name):value:(\(choices.joined(separator: " ")))'"
                case .text: return "'*\(name):value: '"
                }
            }
            if !surface.subcommands.isEmpty {
                specifications.append("'1: :{compadd -- \(surface.subcommands.joined(separator: " ")); _files}'")
            }
            specifications.append("'*: :_files'")
            cases.append(
                "        (\(command.name)) _arguments -S \\\n            "
                    + specifications.joined(separator: " \\\n            ") + " ;;")
        }
        let described =
            surfaces.map { ($0.command.name, $0.command.summary) } + [
                ("--help", "describe the commands"), ("--version", "print the version"),
            ]
        let commands = described.map { name, summary in
            "        '\(name):\(summary.replacingCharacters("'", with: "'\\''"))'"
        }
        return """
            #compdef emrtd
            # zsh completion for emrtd: made by `emrtd help --completion zsh` from each command's usage
            _emrtd() {
                local -a commands
                commands=(
            \(commands.joined(separator: "\n"))
                )
                if ((CURRENT == 2)); then
                    _describe -t commands 'emrtd command' commands
                    return
                fi
                local command=$words[2]
                shift words
                ((CURRENT--))
                case $command in
            \(cases.joined(separator: "\n"))
                esac
            }
            _emrtd "$@"

            """
    }
}

extension String {
    fileprivate func replacingCharacters(_ character: Character, with replacement: String) -> String {
        split(separator: character, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
