/// What a command prints on standard output: words for people, or one JSON document for scripts.
package enum OutputFormat: String, CaseIterable, Sendable {
  case text, json
}
