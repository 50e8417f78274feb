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
