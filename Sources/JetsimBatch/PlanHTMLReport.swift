import JetsimCore
import JetsimIO

extension PlanReport {
  /// `plan.html`: what the answer means, the metric's median and p5–p95 band across seeds against
  /// memory with the target line and the answer marked, and the curve as a table.
  package static func html(_ plan: CapacityPlan, scenario: Scenario) -> String {
    var html = HTMLDocument(title: "jetsim: plan \(scenario.name) on \(scenario.device.name)")
    html.heading("\(scenario.name) on \(scenario.device.name): \(plan.target)")
    html.paragraph(meaning(plan, scenario: scenario))
    let metric = plan.target.metric.name
    let answer = plan.answerKB.map { ($0, "answer \(Units.formatSize($0))") }
    html.raw(
      CurveChart.svg(
        plan.probes.map { CurveChart.Point(kilobytes: $0.memoryKB, values: $0.values) },
        label: "\(metric) against device memory: median and p5 to p95 across seeds",
        xLabel: "device memory", yLabel: metric, unit: ChartUnit.of(metric: metric),
        target: (plan.target.value, "target: \(plan.target)"), answer: answer))
    html.paragraph(
      "The line is the median across seeds (one seed, one simulated day), the band p5 to p95; the dashed line is the target, the upright line the answer. Only the sizes bisection tried are drawn: the knee is where they crowd."
    )
    html.table(
      header: ["memory", "seeds", "\(plan.target.statistic)", "95 % interval", "share met", "met"],
      rows: plan.probes.map { probe in
        let bounds = interval(probe.estimate, plan.target)
        let show = { (value: Double?) in value.map { Units.decimal($0, digits: 4) } ?? "n/a" }
        return [
          Units.formatSize(probe.memoryKB), "\(probe.seedCount)", show(probe.estimate.value),
          "\(show(bounds.low)) to \(show(bounds.high))",
          shareMet(probe, plan.target).map { Units.decimal($0, digits: 3) } ?? "n/a",
          probe.holds ? "yes" : "no",
        ]
      }, numericColumns: [1, 2, 4])
    return html.finish()
  }
}
