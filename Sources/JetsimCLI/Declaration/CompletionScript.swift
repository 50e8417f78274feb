/// Shell completion scripts for `jetsim`, generated from the same declarations as parsing and help
/// (`jetsim --generate-completion-script bash|zsh|fish`).
enum CompletionScript {
  /// The shells a script can be generated for.
  enum Shell: String, CaseIterable {
    case bash, zsh, fish
  }

  static func script(for shell: Shell, commands: [CommandSpec]) -> String {
    switch shell {
    case .bash: bash(commands)
    case .zsh: zsh(commands)
    case .fish: fish(commands)
    }
  }

  static let rootOptions = ["--help", "--version", "--generate-completion-script"]

  // MARK: - bash

  static func bash(_ commands: [CommandSpec]) -> String {
    var script = """
      # bash completion for jetsim. Install: jetsim --generate-completion-script bash > /etc/bash_completion.d/jetsim
      # (or source it from ~/.bashrc).
      _jetsim() {
        local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
        COMPREPLY=()
        if [[ $COMP_CWORD -eq 1 ]]; then
          COMPREPLY=($(compgen -W "\(commands.map(\.name).joined(separator: " ")) \(rootOptions.joined(separator: " "))" -- "$cur"))
          return
        fi
        if [[ "${COMP_WORDS[1]}" == --generate-completion-script ]]; then
          COMPREPLY=($(compgen -W "\(Shell.allCases.map(\.rawValue).joined(separator: " "))" -- "$cur"))
          return
        fi
        case "${COMP_WORDS[1]}" in

      """
    script += commands.map(bashCase).joined()
    script += "  esac\n}\ncomplete -o filenames -o bashdefault -F _jetsim jetsim\n"
    return script
  }

  /// The bash `case` branch of one subcommand: its options' values after them, else its flags or
  /// its first argument.
  static func bashCase(_ command: CommandSpec) -> String {
    var script = "    \(command.name))\n      case \"$prev\" in\n"
    for option in command.allOptions where option.valueName != nil {
      let names = ([option.flag] + (option.short.map { ["-\($0)"] } ?? [])).joined(separator: "|")
      script += "        \(names)) \(bashCompletion(option.completion)); return ;;\n"
    }
    script += "      esac\n"
    let flags = command.allOptions.flatMap { [$0.flag] + ($0.short.map { ["-\($0)"] } ?? []) }
    script += "      if [[ \"$cur\" == -* ]]; then\n"
    script += "        COMPREPLY=($(compgen -W \"\(flags.joined(separator: " "))\" -- \"$cur\"))\n"
    script += "      else\n"
    let argument = command.arguments.first?.completion ?? .none
    script += "        \(bashCompletion(argument))\n"
    script += "      fi\n      ;;\n"
    return script
  }

  static func bashCompletion(_ completion: Completion) -> String {
    switch completion {
    case .none: "COMPREPLY=()"
    case .file: "COMPREPLY=($(compgen -f -- \"$cur\"))"
    case .directory: "COMPREPLY=($(compgen -d -- \"$cur\"))"
    case .values(let words):
      "COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\"))"
    }
  }

  // MARK: - zsh

  static func zsh(_ commands: [CommandSpec]) -> String {
    var script = """
      #compdef jetsim
      # zsh completion for jetsim. Install: jetsim --generate-completion-script zsh > "${fpath[1]}/_jetsim"

      _jetsim() {
        local line state
        _arguments -C \\
          '(- *)'{-h,--help}'[show help]' \\
          '(- *)--version[show the version]' \\
          '(- *)--generate-completion-script[print a completion script]:shell:(\(Shell.allCases.map(\.rawValue).joined(separator: " ")))' \\
          '1: :->subcommand' \\
          '*:: :->arguments'
        case $state in
          subcommand)
            local -a subcommands
            subcommands=(

      """
    for command in commands {
      script += "        \(zshQuote("\(command.name):\(command.abstract)"))\n"
    }
    script += """
            )
            _describe 'subcommand' subcommands
            ;;
          arguments)
            case $line[1] in

      """
    script += commands.map(zshArguments).joined()
    script += """
            esac
            ;;
        esac
      }

      _jetsim "$@"

      """
    return script
  }

  /// The zsh `case` branch of one subcommand: `_arguments` with each option and argument.
  static func zshArguments(_ command: CommandSpec) -> String {
    var script = "          \(command.name))\n            _arguments \\\n"
    for option in command.allOptions {
      let names = option.short.map { "{-\($0),\(option.flag)}" } ?? option.flag
      let action =
        option.valueName.map { ":\($0.lowercased()):\(zshAction(option.completion))" } ?? ""
      script += "              \(names)\(zshQuote("[\(option.help)]\(action)")) \\\n"
    }
    for argument in command.arguments {
      let position = argument.count == .oneOrMore ? "*" : ""
      script +=
        "              \(zshQuote("\(position):\(argument.name.lowercased()):\(zshAction(argument.completion))")) \\\n"
    }
    return script + "              && return 0\n            ;;\n"
  }

  static func zshAction(_ completion: Completion) -> String {
    switch completion {
    case .none: " "
    case .file(let extensions) where !extensions.isEmpty:
      "_files -g \"*.(\(extensions.joined(separator: "|")))\""
    case .file: "_files"
    case .directory: "_files -/"
    case .values(let words): "(\(words.joined(separator: " ")))"
    }
  }

  /// `text` in single quotes for zsh, with brackets and colons in the help escaped where needed.
  static func zshQuote(_ text: String) -> String {
    "'" + text.replacing("'", with: "'\\''") + "'"
  }

  // MARK: - fish

  static func fish(_ commands: [CommandSpec]) -> String {
    var script = """
      # fish completion for jetsim. Install: jetsim --generate-completion-script fish > ~/.config/fish/completions/jetsim.fish
      complete -c jetsim -f
      complete -c jetsim -n __fish_use_subcommand -s h -l help -d 'show help'
      complete -c jetsim -n __fish_use_subcommand -l version -d 'show the version'
      complete -c jetsim -n __fish_use_subcommand -l generate-completion-script -r -a '\(Shell.allCases.map(\.rawValue).joined(separator: " "))' -d 'print a completion script'

      """
    for command in commands {
      script +=
        "complete -c jetsim -n __fish_use_subcommand -a \(command.name) -d \(fishQuote(command.abstract))\n"
    }
    for command in commands {
      let condition = "'__fish_seen_subcommand_from \(command.name)'"
      for option in command.allOptions {
        var line = "complete -c jetsim -n \(condition)"
        if let short = option.short { line += " -s \(short)" }
        line += " -l \(option.name)"
        if option.valueName != nil {
          line += " -r"
          switch option.completion {
          case .none: line += " -f"
          case .file: line += " -F"
          case .directory: line += " -a '(__fish_complete_directories)'"
          case .values(let words): line += " -f -a \(fishQuote(words.joined(separator: " ")))"
          }
        }
        line += " -d \(fishQuote(option.help))"
        script += line + "\n"
      }
      if let argument = command.arguments.first, argument.completion != .none {
        script += "complete -c jetsim -n \(condition) -F\n"
      }
    }
    return script
  }

  static func fishQuote(_ text: String) -> String {
    "'"
      + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'")
      + "'"
  }
}
