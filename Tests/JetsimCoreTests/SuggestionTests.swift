import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

@Suite struct SuggestionTests {
  @Test func closeTyposAreSuggested() {
    #expect(Suggestion.closest(to: "resdent", in: ["resident", "caches"]) == "resident")
    #expect(
      Suggestion.closest(to: "largest-frist", in: ["largest-first", "lru"]) == "largest-first")
    #expect(Suggestion.closest(to: "zzzzzz", in: ["resident", "caches"]) == nil)
    #expect(Suggestion.closest(to: "opne", in: ["open", "home"]) == "open")
    #expect(Suggestion.closest(to: "com.example.mail", in: ["com.example.notes"]) == nil)
    // The same both ways: a singular for a plural as a plural for a singular.
    #expect(Suggestion.closest(to: "--policies", in: ["--policy", "--seed"]) == "--policy")
    #expect(Suggestion.closest(to: "--policy", in: ["--policies", "--seeds"]) == "--policies")
    #expect(Suggestion.closest(to: "--seed", in: ["--policies", "--seeds"]) == "--seeds")
    #expect(Suggestion.editDistance(Array("ab".unicodeScalars), Array("ba".unicodeScalars)) == 1)
    #expect(
      Suggestion.editDistance(Array("kitten".unicodeScalars), Array("sitting".unicodeScalars)) == 3)
  }
}
