import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

@Suite struct UnitsTests {
  @Test(arguments: [
    ("512KB", 512), ("350MB", 358_400), ("1.5GB", 1_572_864), ("0MB", 0), ("1GB", 1_048_576),
    ("0.5KB", 1), ("1.25MB", 1280), (" 2MB ", 2048),
    // The common spellings: any case, binary prefixes, a space before the unit.
    ("350mb", 358_400), ("1.5gb", 1_572_864), ("2MiB", 2048), ("1 GB", 1_048_576), ("64k", 64),
    ("1TB", 1_073_741_824),
    // Up to the largest size accepted, which the error messages name: 1 PB.
    ("1PB", 1 << 40), ("0.5PB", 1 << 39), ("1024TB", 1 << 40),
  ])
  func sizesAreKilobytes(text: String, kilobytes: Int) {
    #expect(Units.kilobytes(text) == kilobytes)
  }

  @Test(arguments: [
    "350", "-5MB", "MB", "1.2.3MB", "1e3MB", "", "abcMB", ".5MB", "5.MB", "5 MB B", "5PB",
    "1025TB", "1.01PB", "99999999999999999999MB", "5MBs",
  ])
  func sizesWithoutAValidUnitAreRejected(text: String) {
    #expect(Units.kilobytes(text) == nil)
  }

  @Test(arguments: [
    ("250ms", 250), ("5s", 5000), ("2m", 120_000), ("1h", 3_600_000), ("1.5s", 1500), ("0s", 0),
    ("1h30m", 5_400_000), ("2m5s", 125_000), ("1s250ms", 1250),
    ("5sec", 5000), ("2min", 120_000), ("30 S", 30_000), ("1H", 3_600_000),
  ])
  func durationsAreMilliseconds(text: String, milliseconds: Int) {
    #expect(Units.milliseconds(text) == milliseconds)
  }

  @Test(arguments: [
    "5", "-1s", "s", "1d", "5 s s", "1h30", "m5s", "1hh", "",
    // Each segment under the cap, the total over it: rejected, never an overflow.
    String(repeating: "1221000h", count: 5_000),
  ])
  func durationsWithoutAValidUnitAreRejected(text: String) {
    #expect(Units.milliseconds(text) == nil)
  }

  @Test func formatting() {
    #expect(Units.formatSize(358_400) == "350MB")
    #expect(Units.formatSize(1_048_576) == "1GB")
    #expect(Units.formatSize(1000) == "1000KB")
    #expect(Units.megabytes(-204_800) == "-200.0 MB")
    #expect(Units.clock(3_725_200) == "01:02:05.200")
    #expect(Units.clock(0) == "00:00:00.000")
    #expect(Units.clock(-61_001) == "-00:01:01.001")
    #expect(Units.clock(360_000_000 + 7) == "100:00:00.007", "hours past two digits")
    #expect(Units.clock(Units.maxMilliseconds) == "1221679:35:11.104")
    #expect(FixedPoint.fixed(5, scaleDigits: 3) == "0.005")
    #expect(FixedPoint.fixed(0, scaleDigits: 0, negative: true) == "0", "no minus zero")
    #expect(FixedPoint.fixed(12_345, scaleDigits: 0, negative: true) == "-12345")
    #expect(FixedPoint.fixed(UInt.max, scaleDigits: 1) == "1844674407370955161.5")
    #expect(FixedPoint.format(18.947368) == "18.9474")
    #expect(FixedPoint.format(-0.00004) == "0.0000")
    #expect(FixedPoint.format(2.0 / 3.0, digits: 2) == "0.67")
    #expect(Units.decimal(1_234_567.5, digits: 0) == "1234568")
    #expect(Units.decimal(-0.4, digits: 0) == "0")
    #expect(Units.decimal(-2.5, digits: 0) == "-3")
    #expect(Units.decimal(.nan, digits: 2) == "nan")
  }

  /// Counts in messages: singular for one ("1 seeds" read wrong).
  @Test func countsAreSingularForOne() {
    #expect(1.counted("seed") == "1 seed")
    #expect(2.counted("seed") == "2 seeds")
    #expect(0.counted("run") == "0 runs")
    #expect(1.counted("policy", "policies") == "1 policy")
    #expect(3.counted("process", "processes") == "3 processes")
  }
}
