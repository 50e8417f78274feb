import Foundation
import JetsimTestSupport
import Testing

/// Jetsam coalitions as a user declares them in a device profile (`coalition`, `role`): the
/// FOREGROUND band sorted by coalition at a kill, and the one-line errors for roles the kernel
/// cannot hold.
@Suite struct CoalitionsEndToEndTests {
  /// A 2 GB device: "mail" on screen (300 MB) with its share extension (200 MB) and a widget daemon
  /// (250 MB), all in FOREGROUND; at 5 s mail allocates 150 MB, which leaves available memory
  /// under the critical level. `coalition` is the extension's key, or none.
  static func scenario(extensionKeys: String) -> String {
    """
    {
      "version": 1, "name": "coalitions",
      "device": {"name": "2 GB", "memory": "2048MB", "reserved": "1100MB",
        "systemProcesses": [
          {"name": "mail-share", "kind": "extension", "footprint": "200MB", "band": 100\(extensionKeys)},
          {"name": "widgetd", "kind": "active-daemon", "footprint": "250MB", "band": 100}
        ]},
      "apps": [{"id": "mail", "resident": "300MB"}],
      "script": [{"at": "0s", "action": "open", "app": "mail"},
                 {"at": "5s", "action": "allocate", "app": "mail", "size": "150MB"}],
      "duration": "10s"
    }
    """
  }

  /// The victims of a jetsam run of `scenario`.
  func victims(_ scenario: String) throws -> [String] {
    let scratch = try ScratchFolder()
    let path = try scratch.write("s.json", scenario)
    let run = try jetsim(["run", path, "--policy", "jetsam", "-o", scratch.path + "/out", "-q"])
    #expect(run.status == 0, "\(run.errors)")
    let kills = try String(contentsOfFile: scratch.path + "/out/kills.csv", encoding: .utf8)
    return kills.split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[2]) }
  }

  /// mail, allocating, is spared. In mail's coalition the extension dies first: the coalition
  /// (500 MB) outranks widgetd's (250 MB), and an extension dies before its leader
  /// (`memorystatus_sort_by_largest_coalition_locked`, xnu-11417 kern_memorystatus.c:9235). On its
  /// own, the extension is the smaller of the two and widgetd dies instead.
  @Test func theForegroundBandIsSortedByCoalition() throws {
    #expect(try victims(Self.scenario(extensionKeys: #", "coalition": "mail""#)) == ["mail-share"])
    #expect(try victims(Self.scenario(extensionKeys: "")) == ["widgetd"])
  }

  /// A role the kernel cannot hold is refused before the run, exit 65, in one line naming the key.
  @Test(arguments: [
    (
      #", "role": "boss""#,
      "'device.systemProcesses[0].role' is \"boss\"; expected one of leader, xpc, extension, undefined"
    ),
    (
      #", "coalition": "mail", "role": "leader""#,
      "'device.systemProcesses[0].role' is \"leader\" of 'mail', which the app of that id leads"
    ),
    (
      #", "role": "xpc""#,
      "'device.systemProcesses[0].role' is \"xpc\" without a coalition"
    ),
    (
      #", "coalition": "widgetd", "role": "leader""#,
      "'device.systemProcesses[1].role' is \"leader\" of 'widgetd', led by device.systemProcesses[0] already"
    ),
  ])
  func anImpossibleRoleIsRefused(keys: String, message: String) throws {
    let scratch = try ScratchFolder()
    let path = try scratch.write("s.json", Self.scenario(extensionKeys: keys))
    for command in [["validate", path], ["run", path, "-o", scratch.path + "/out", "-q"]] {
      let run = try jetsim(command)
      #expect(run.status == 65)
      #expect(run.errors.contains(message), "\(run.errors)")
      #expect(run.errors.split(separator: "\n").count == 1, "\(run.errors)")
    }
    #expect(!FileManager.default.fileExists(atPath: scratch.path + "/out"))
  }
}
