import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore
@testable import JetsimIO

@Suite struct LSAppImportTests {
  let known = [AppProfile(id: "com.example.maps", name: "Maps", residentKB: mb(200))]

  @Test func opensAndClosesBecomeATrace() throws {
    let log = """
      user_id\tsession_id\ttimestamp\tapp_name\tevent_type
      7\t1\t2018-01-16 06:01:05\tMaps\tOpened
      7\t1\t2018-01-16 06:03:05\tMaps\tUser Interaction
      7\t1\t2018-01-16 06:05:05\tMaps\tClosed
      8\t9\t2018-01-16 06:06:00\tMaps\tOpened
      7\t2\t2018-01-16 07:00:00.5\tWhatsApp Messenger\tOpened
      7\t2\t2018-01-16 07:01:00\tMaps\tClosed
      """
    let conversion = try LSAppImport.convert(log, path: "log.tsv", known: known)
    #expect(conversion.user == "7")
    #expect(
      conversion.actions == [
        TimedAction(0, .open("com.example.maps")), TimedAction(240_000, .home),
        // 58 min 55.5 s after the first event.
        TimedAction(3_535_500, .open("lsapp.whatsapp-messenger")),
      ])
    #expect(conversion.matched == ["Maps"] && conversion.unmatched == ["WhatsApp Messenger"])
    #expect(conversion.apps.last?.residentKB == LSAppImport.defaultApp.residentKB)
    #expect(conversion.apps.last?.name == "WhatsApp Messenger")
    let other = try LSAppImport.convert(log, path: "log.tsv", user: "8", known: known)
    #expect(other.actions == [TimedAction(0, .open("com.example.maps"))])
  }

  @Test func commaSeparatedLogsAndEpochSecondsWork() throws {
    let log =
      "user,session,time,app,event\n1,1,1516082465,Maps,Opened\n1,1,1516082470,Maps,Closed\n"
    let conversion = try LSAppImport.convert(log, path: "log.csv", known: known)
    #expect(
      conversion.actions == [TimedAction(0, .open("com.example.maps")), TimedAction(5_000, .home)])
  }

  @Test func badLogsNameTheLineAndTheFix() {
    #expect(
      throws: JetsimError.traceLine(
        path: "l", line: 2,
        message:
          "timestamp 'yesterday' is not YYYY-MM-DD HH:MM:SS (years 1 to 9999) or whole seconds since 1970"
      )
    ) {
      try LSAppImport.convert(
        "user_id,timestamp,app_name,event_type\n1,yesterday,Maps,Opened\n", path: "l", known: [])
    }
    #expect(throws: JetsimError.self) {
      try LSAppImport.convert("user_id,timestamp,app\n", path: "l", known: [])
    }
    #expect(
      throws: JetsimError.traceLine(
        path: "l", line: 1, message: "no Opened or Closed events for user '9'")
    ) {
      try LSAppImport.convert(
        "user_id,timestamp,app_name,event_type\n1,5,Maps,Opened\n", path: "l", user: "9", known: [])
    }
  }

  @Test(arguments: ["\"Ma\rps\"", "\"\"", String(repeating: "M", count: 101)])
  func appNamesThatCannotBeProfileNamesAreRefusedAtTheirLine(name: String) {
    // Found by jetsim-fuzz: validate accepted a name that the imported scenario then refused.
    let error = #expect(throws: JetsimError.self) {
      try LSAppImport.convert(
        "user_id,timestamp,app_name,event_type\n1,5,Maps,Opened\n1,6,\(name),Opened\n", path: "l",
        known: [])
    }
    #expect("\(error.map { "\($0)" } ?? "")".hasPrefix("l:3: app_name '"))
    #expect(
      "\(error.map { "\($0)" } ?? "")".hasSuffix(
        "must be 1 to 100 characters on one line, without control characters"))
  }

  @Test func twoNamesOfOneProfileAreOneApp() throws {
    // Found by jetsim-fuzz: the profile was added twice and the scenario refused to load.
    let conversion = try LSAppImport.convert(
      "user_id,timestamp,app_name,event_type\n1,5,Maps,Opened\n1,6,com.example.maps,Opened\n1,7,MAPS,Closed\n",
      path: "l", known: known)
    #expect(conversion.apps.map(\.id) == ["com.example.maps"])
    #expect(
      conversion.actions == [
        TimedAction(0, .open("com.example.maps")), TimedAction(1000, .open("com.example.maps")),
        TimedAction(2000, .home),
      ])
  }

  @Test func timestampsAreUTCDates() {
    #expect(Timestamp.milliseconds("1970-01-01 00:00:00") == 0)
    #expect(Timestamp.milliseconds("2018-01-16 06:01:05") == 1_516_082_465_000)
    #expect(Timestamp.milliseconds("2000-02-29 12:00:00") == 951_825_600_000)
    #expect(Timestamp.milliseconds("2018-13-01 00:00:00") == nil)
    // Years 1 to 9999 only, so that no two timestamps overflow when subtracted.
    #expect(Timestamp.milliseconds("999999999999-1-1 0:0:0") == nil)
    #expect(Timestamp.milliseconds("9233720368547758") == nil)
    #expect(Timestamp.milliseconds("-9000000000000000") == nil)
    #expect(Timestamp.milliseconds("9999-12-31 23:59:59") == 253_402_300_799_000)
  }

  @Test func aLogLongerThanARunIsRefusedWhereValidateSeesIt() {
    let log =
      "user_id,timestamp,app_name,event_type\n1,1970-01-01 00:00:00,Maps,Opened\n1,2200-01-01 00:00:00,Maps,Opened\n"
    #expect(
      throws: JetsimError.traceLine(
        path: "l", line: 3,
        message:
          "this event is more than 139 years after the user's first (jetsim's longest run); split the log"
      )
    ) { try LSAppImport.convert(log, path: "l", known: []) }
  }

  @Test func namesThatDifferInPunctuationGetIdsOfTheirOwn() throws {
    let log =
      "user_id\ttimestamp\tapp_name\tevent_type\r\n1\t2018-01-16 07:00:00\tFoo Bar\tOpened\r\n1\t2018-01-16 07:01:00\tFoo-Bar\tOpened\r\n"
    let conversion = try LSAppImport.convert(log, path: "crlf.tsv", known: [])
    #expect(conversion.apps.map(\.id) == ["lsapp.foo-bar", "lsapp.foo-bar-2"])
    #expect(conversion.actions.count == 2, "a Windows (CRLF) tab-separated log reads")
  }

  @Test func aVeryLongUserIdStillMakesAFileName() throws {
    let scratch = try ScratchFolder()
    let base = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/daily-commute.json")
    let user = String(repeating: "x", count: 300)
    let log = try scratch.write(
      "long.tsv",
      "user_id\ttimestamp\tapp_name\tevent_type\n\(user)\t2018-01-16 07:13:00\tMail\tOpened\n")
    let (_, path, _) = try LSAppImport.importLog(at: log, base: base, into: scratch.path + "/out")
    #expect(FileSystem.split(path).name.count < 100)
    let trace = try #require(try ProfileLoader.scenario(at: path).trace)
    #expect(try ProfileLoader.trace(at: trace.path).count == 1)
  }

  @Test func theImportedScenarioLoadsAndRuns() throws {
    let scratch = try ScratchFolder()
    let base = try ProfileLoader.scenario(
      at: "\(packageRoot)/Profiles/scenarios/daily-commute.json")
    let (conversion, path, _) = try LSAppImport.importLog(
      at: "\(packageRoot)/Profiles/traces/lsapp-sample.tsv", base: base, user: "1",
      into: scratch.path)
    let scenario = try ProfileLoader.scenario(at: path)
    #expect(scenario.apps.map(\.id) == conversion.apps.map(\.id))
    #expect(scenario.device == base.device)
    let trace = try #require(scenario.trace, "the trace is streamed, not loaded into actions")
    #expect(scenario.actions.isEmpty)
    #expect(try ProfileLoader.trace(at: trace.path) == conversion.actions)
    #expect(try Simulator.run(scenario).summary.metrics.opens > 10)
  }
}
