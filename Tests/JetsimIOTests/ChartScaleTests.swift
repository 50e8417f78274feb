import JetsimTestSupport
import Testing

@testable import JetsimIO

/// Chart axes tick at round values in units people read (docs/reports.md, "Charts").
@Suite struct ChartScaleTests {
  func labels(_ scale: ChartScale) -> [String] { scale.ticks.map(scale.label) }

  @Test func ratiosTickAtTenthsAndStopAtOne() {
    let scale = ChartScale(from: 0.24, to: 0.97, unit: .ratio)
    #expect(labels(scale) == ["0", "0.2", "0.4", "0.6", "0.8", "1"])
    #expect(scale.upper == 1)
    // A confidence interval past 1 does not stretch the axis.
    #expect(ChartScale(from: 0.8, to: 1.04, unit: .ratio).upper == 1)
  }

  @Test func sizesReadInMBOrGB() {
    #expect(
      labels(ChartScale(from: 0, to: 1174 * 1024, unit: .kilobytes))
        == ["0", "200 MB", "400 MB", "600 MB", "800 MB", "1000 MB", "1200 MB"])
    let memory = ChartScale(from: 1_048_576, to: 3_145_728, unit: .kilobytes, includingZero: false)
    #expect(labels(memory) == ["1 GB", "1.5 GB", "2 GB", "2.5 GB", "3 GB"])
    #expect(memory.fraction(1_048_576) == 0 && memory.fraction(3_145_728) == 1)
  }

  @Test func runTimesReadOnAClock() {
    let short = ChartScale(from: 0, to: 35 * 60_000, unit: .clock, roundOut: false)
    #expect(labels(short) == ["0:00", "10:00", "20:00", "30:00"] && short.clockFormat == "m:ss")
    #expect(short.upper == 35 * 60_000)
    let seconds = ChartScale(from: 0, to: 190_000, unit: .clock, roundOut: false)
    #expect(labels(seconds) == ["0:00", "1:00", "2:00", "3:00"])
    let day = ChartScale(from: 0, to: 8 * 3_600_000, unit: .clock, roundOut: false)
    #expect(labels(day) == ["0:00", "2:00", "4:00", "6:00", "8:00"] && day.clockFormat == "h:mm")
    // Past a day, days and hours: never "26:00".
    let days = ChartScale(from: 0, to: 50 * 3_600_000, unit: .clock, roundOut: false)
    #expect(
      labels(days) == ["0:00", "12:00", "1 d 00:00", "1 d 12:00", "2 d 00:00"]
        && days.clockFormat == "h:mm; past a day, d hh:mm")
    let week = ChartScale(from: 0, to: 9 * 86_400_000 + 7_200_000, unit: .clock, roundOut: false)
    #expect(labels(week).last == "8 d 00:00")
  }

  @Test func durationsPickTheirUnit() {
    #expect(labels(ChartScale(from: 0, to: 31_225, unit: .milliseconds)).last == "40 s")
    #expect(labels(ChartScale(from: 0, to: 900, unit: .milliseconds)).last == "1000 ms")
    #expect(labels(ChartScale(from: 0, to: 5_400_000, unit: .milliseconds)).last == "100 min")
  }

  @Test func negativeDataKeepsZeroAndEveryValueInside() {
    let scale = ChartScale(from: -3.7, to: 1.2, unit: .count)
    #expect(scale.lower <= -3.7 && scale.upper >= 1.2 && scale.ticks.contains(0))
    #expect(labels(scale) == ["-4", "-3", "-2", "-1", "0", "1", "2"])
  }

  @Test func flatOrMissingDataStillGivesAnAxis() {
    #expect(
      labels(ChartScale(from: 0, to: 0, unit: .count)) == ["0", "0.2", "0.4", "0.6", "0.8", "1"])
    #expect(!ChartScale(from: .nan, to: .infinity, unit: .count).ticks.isEmpty)
  }

  @Test func moreSeriesThanColoursStillLookApart() {
    let styles = (0..<32).map(ChartStyle.series)
    let distinct = Set(styles.map { "\($0.colour)|\($0.dash ?? "-")|\($0.marker)" })
    #expect(distinct.count == 32)
    #expect(styles[0].colour == styles[8].colour && styles[0].dash != styles[8].dash)
  }
}
