import Jetsim
import JetsimTestSupport
import Testing

@testable import JetsimCLI

/// `--help` is generated from the declarations: every option in the usage line and the option list,
/// an ARGUMENTS section, an example, and no line over 100 columns.
@Suite struct HelpFormatterTests {
  @Test(arguments: Subcommands.specs.map(\.name))
  func everySubcommandHasCompleteHelp(name: String) throws {
    let spec = try #require(Subcommands.named(name))
    let text = HelpFormatter.help(spec)
    #expect(text.contains("USAGE: jetsim \(name)"))
    #expect(text.contains("EXAMPLES:\n  jetsim "))
    let usage = try #require(text.components(separatedBy: "\n\n").first { $0.hasPrefix("USAGE:") })
    for option in spec.allOptions where option.name != "help" {
      #expect(usage.contains(option.flag), "the usage line of \(name) misses \(option.flag)")
      #expect(text.contains(option.label), "the options of \(name) miss \(option.label)")
    }
    for argument in spec.arguments {
      #expect(text.contains("ARGUMENTS:\n") && text.contains("  \(argument.usage)"))
    }
    for line in text.split(separator: "\n") {
      #expect(line.count <= HelpFormatter.width, "\(name): \(line)")
    }
  }

  /// A required option is shown without brackets, in the usage line and so in `--help`.
  @Test func theUsageLineShowsRequiredOptionsWithoutBrackets() {
    let usage = HelpFormatter.usage(WhatIfOptions.spec)
    #expect(
      usage.hasPrefix(
        "USAGE: jetsim what-if SCENARIO --app ID --resident SIZES [--devices FILES] [--policy NAME]"
      ))
    #expect(HelpFormatter.help(WhatIfOptions.spec).contains(usage))
    #expect(
      HelpFormatter.usage(CheckOptions.spec).hasPrefix(
        "USAGE: jetsim check SCENARIO --expect DIR [--events] [--numbers]"))
    #expect(HelpFormatter.usage(RunOptions.spec).hasPrefix("USAGE: jetsim run SCENARIO [--policy"))
  }

  /// `--help` lists under FILES the report files `ReportFile` says the subcommand writes, each with
  /// what it holds, and has no FILES section when it writes none.
  @Test(arguments: Subcommands.specs.map(\.name))
  func theFilesSectionIsTheRegistrys(name: String) throws {
    let spec = try #require(Subcommands.named(name))
    let text = HelpFormatter.help(spec)
    let files = ReportFile.written(by: name)
    guard !files.isEmpty else {
      #expect(!text.contains("\nFILES:\n"))
      return
    }
    let section = try #require(text.components(separatedBy: "\nFILES:\n").dropFirst().first)
      .components(separatedBy: "\n\n")[0]
    let listed = section.split(separator: "\n").filter {
      $0.hasPrefix("  ") && !$0.hasPrefix("   ")
    }
    .map { String($0.dropFirst(2).prefix { $0 != " " }) }
    #expect(listed == files.map(\.name))
    #expect(
      section.contains(HelpFormatter.words(files[0].contents).prefix(3).joined(separator: " ")))
  }

  /// The usage line and the parser read one declaration: each option the usage line shows without
  /// brackets, taken out of the subcommand's first example, is rejected as missing; with every
  /// bracketed option taken out, the example still parses.
  @Test(arguments: Subcommands.specs.map(\.name))
  func theOptionsShownWithoutBracketsAreTheRequiredOnes(name: String) throws {
    let spec = try #require(Subcommands.named(name))
    let words = HelpFormatter.usage(spec).split(whereSeparator: \.isWhitespace)
    let required = words.filter { $0.hasPrefix("--") }.map(String.init)
    let optional = words.filter { $0.hasPrefix("[--") }.map {
      String($0.dropFirst().prefix { $0 != "]" })
    }
    let example = try #require(spec.examples.first).split(separator: " ").dropFirst().map {
      $0.trimmingCharacters(in: ["\""])
    }
    for flag in required {
      let option = try #require(spec.option(flag))
      do {
        _ = try CommandParser.parse(Self.removing(option, from: example))
        Issue.record("\(name) ran without \(flag)")
      } catch {
        #expect(error.message.hasPrefix("'\(name)' needs \(option.written)"), "\(error.message)")
      }
    }
    var minimal = example
    for flag in optional { minimal = Self.removing(try #require(spec.option(flag)), from: minimal) }
    #expect(throws: Never.self, "\(minimal)") { try CommandParser.parse(minimal) }
  }

  /// `words` without `option` (long or short) and its value.
  static func removing(_ option: OptionSpec, from words: [String]) -> [String] {
    var words = words
    let names = [option.flag] + (option.short.map { ["-\($0)"] } ?? [])
    while let index = words.firstIndex(where: names.contains) {
      words.removeSubrange(index..<min(words.count, index + (option.valueName == nil ? 1 : 2)))
    }
    return words
  }

  @Test func theOverviewListsEverySubcommandWithinTheWidth() {
    let text = HelpFormatter.overview(Subcommands.specs)
    for spec in Subcommands.specs { #expect(text.contains("  \(spec.name)")) }
    for line in text.split(separator: "\n") { #expect(line.count <= HelpFormatter.width) }
  }

  @Test func everyExampleParses() throws {
    for spec in Subcommands.specs {
      for example in spec.examples {
        let words = example.split(separator: " ").dropFirst().map {
          $0.trimmingCharacters(in: ["\""])
        }
        #expect(throws: Never.self, "\(example)") { try CommandParser.parse(Array(words)) }
      }
    }
  }

  @Test func wrappingKeepsEveryWordAndTheWidth() {
    let words = (0..<80).map { "word\($0)" }
    let text = HelpFormatter.wrap(words, first: "  ", rest: "    ")
    #expect(text.split(separator: "\n").allSatisfy { $0.count <= HelpFormatter.width })
    #expect(HelpFormatter.words(text) == words)
  }
}
