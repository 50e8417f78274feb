/// Timed actions read one at a time, as a run needs them (a trace file), so that a workload of any
/// length never sits in memory.
public protocol ActionCursor {
  /// The next action, or nil at the end. A cursor returns its actions in time order, and throws if
  /// its input has them out of order.
  mutating func next() throws(JetsimError) -> TimedAction?
  /// Where the action `next` returned last comes from (the file, and `line 12`), for errors.
  var location: (path: String, location: String) { get }
  /// The line the action `next` returned last is on, for a cursor over a text file: its errors
  /// are named `file:line:`, as the file's reader names its own; nil otherwise.
  var line: Int? { get }
  /// The SHA-256 of what the cursor read, once it has read its input to the end (a trace file read
  /// with hashing); nil otherwise. The reader owns the digest of what it reads.
  var digest: String? { get }
}

extension ActionCursor {
  /// A cursor over no file has no digest.
  public var digest: String? { nil }
  /// A cursor over no text file has no lines.
  public var line: Int? { nil }
}

/// Actions that can be read again from the start, once per run: a trace file, opened afresh by each
/// run of a scenario (and by `checkWorkload`).
public struct ActionFeed: Sendable {
  /// Where the actions come from (a trace file's path).
  public let path: String
  private let opener: @Sendable () throws(JetsimError) -> any ActionCursor

  /// A feed whose every reading is a new cursor from `open`.
  public init(path: String, open: @escaping @Sendable () throws(JetsimError) -> any ActionCursor) {
    self.path = path
    self.opener = open
  }

  /// A feed of actions held in memory (`location` names them by position).
  public init(path: String, actions: [TimedAction]) {
    self.init(path: path) { ActionList(actions, path: path) }
  }

  /// A cursor at the first action.
  public func open() throws(JetsimError) -> any ActionCursor { try opener() }
}

/// Actions held in memory, read as a cursor.
public struct ActionList: ActionCursor, Sendable {
  private let actions: [TimedAction]
  private let path: String
  private var position = 0

  /// A feed of `actions` in memory; errors about them name `path`.
  public init(_ actions: [TimedAction], path: String) {
    self.actions = actions
    self.path = path
  }

  public mutating func next() throws(JetsimError) -> TimedAction? {
    guard position < actions.count else { return nil }
    let action = actions[position]
    if position > 0, action.timeMs < actions[position - 1].timeMs {
      throw .invalidValue(
        path: path, keyPath: "actions[\(position)]",
        value:
          "at \(action.timeMs)ms, before the previous action (\(actions[position - 1].timeMs)ms)",
        expected: "actions in time order")
    }
    position += 1
    return action
  }

  public var location: (path: String, location: String) { (path, "actions[\(position - 1)]") }
}
