import JetsimCore

/// One axis of a chart: a continuous scale, or categories in equal bands (their labels under
/// their centres, where their marks go).
package enum ChartAxis: Sendable {
  case scale(ChartScale)
  case bands([String])
}

/// A chart drawn as inline SVG: a plot area with axes whose ticks are round numbers in units people
/// read (`ChartScale`), and the marks the reports need. Coordinates are written with one decimal,
/// the same on every platform.
package struct SVGChart: Sendable {
  package let width: Double
  package let height: Double
  package let left: Double
  package let right = 20.0
  package let top = 14.0
  package let bottom = 42.0
  package let xAxis: ChartAxis
  package let yScale: ChartScale?
  private var body = MarkupBytes()

  /// A chart `width` × `height` pixels (the plot area, margins aside) with `x` across and `y` up
  /// (nil: rows drawn by the caller).
  package init(
    width: Double, height: Double, label: String, x: ChartAxis, y: ChartScale?,
    leftMargin: Double = 70
  ) {
    self.width = width
    self.height = height
    // Room for the widest tick label (about 7 px a character at 12 px) and the rotated axis
    // title beside it, so the two never overlap.
    let widestTick = y.map { scale in scale.ticks.map { scale.label($0).count }.max() ?? 0 } ?? 0
    self.left = max(leftMargin, 30 + 7 * Double(widestTick))
    xAxis = x
    yScale = y
    let total = "0 0 \(n(width + left + right)) \(n(height + top + bottom))"
    body.append(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"\(total)\" role=\"img\" aria-label=\"\(HTMLDocument.escape(label))\">"
    )
    body.append("<title>\(HTMLDocument.escape(label))</title>")
  }

  /// A number as SVG writes it.
  package func n(_ value: Double) -> String { Units.decimal(value, digits: 1) }

  /// The horizontal position of `value`: a value on the scale, or a band's index.
  package func x(_ value: Double) -> Double {
    switch xAxis {
    case .scale(let scale): left + scale.fraction(value) * width
    case .bands(let labels): left + (value + 0.5) / Double(max(labels.count, 1)) * width
    }
  }

  /// The vertical position of `value` on the y scale.
  package func y(_ value: Double) -> Double {
    top + height - (yScale?.fraction(value) ?? 0) * height
  }

  /// The width of one band of a categorical x axis (the whole width otherwise).
  package var bandWidth: Double {
    if case .bands(let labels) = xAxis { return width / Double(max(labels.count, 1)) }
    return width
  }

  /// Draws the axes: ticks and labels at the scale's round values, or each category's label under
  /// its band's centre; grid lines at the y ticks, and the zero line when the y scale spans it.
  package mutating func axes(xLabel: String, yLabel: String?) {
    body.append("<g class=\"axis\">")
    body.append(
      "<line x1=\"\(n(left))\" y1=\"\(n(top + height))\" x2=\"\(n(left + width))\" y2=\"\(n(top + height))\"/>"
    )
    let marks: [(position: Double, text: String)]
    switch xAxis {
    case .scale(let scale): marks = scale.ticks.map { (x($0), scale.label($0)) }
    case .bands(let labels): marks = labels.enumerated().map { (x(Double($0)), $1) }
    }
    for mark in marks {
      body.append(
        "<line x1=\"\(n(mark.position))\" y1=\"\(n(top + height))\" x2=\"\(n(mark.position))\" y2=\"\(n(top + height + 5))\"/>"
      )
      body.append(
        "<text x=\"\(n(mark.position))\" y=\"\(n(top + height + 18))\" text-anchor=\"middle\" class=\"tick\">\(HTMLDocument.escape(mark.text))</text>"
      )
    }
    body.append(
      "<text x=\"\(n(left + width / 2))\" y=\"\(n(top + height + 36))\" text-anchor=\"middle\" class=\"label\">\(HTMLDocument.escape(xLabel))</text>"
    )
    if let yLabel, let yScale {
      body.append(
        "<line x1=\"\(n(left))\" y1=\"\(n(top))\" x2=\"\(n(left))\" y2=\"\(n(top + height))\"/>")
      for tick in yScale.ticks {
        body.append(
          "<line x1=\"\(n(left - 5))\" y1=\"\(n(y(tick)))\" x2=\"\(n(left + width))\" y2=\"\(n(y(tick)))\" class=\"\(tick == 0 && yScale.lower < 0 ? "zero" : "grid")\"/>"
        )
        body.append(
          "<text x=\"\(n(left - 8))\" y=\"\(n(y(tick) + 4))\" text-anchor=\"end\" class=\"tick\">\(HTMLDocument.escape(yScale.label(tick)))</text>"
        )
      }
      body.append(
        "<text x=\"14\" y=\"\(n(top + height / 2))\" text-anchor=\"middle\" class=\"label\" transform=\"rotate(-90 14 \(n(top + height / 2)))\">\(HTMLDocument.escape(yLabel))</text>"
      )
    }
    body.append("</g>")
  }

  /// A filled area between two step functions (each value holds until the next time).
  package mutating func stepArea(
    times: [Double], lower: [Double], upper: [Double], end: Double, fill: String, title: String
  ) {
    guard !times.isEmpty else { return }
    body.append("<polygon points=\"")
    steps(times: times, values: upper, end: end)
    steps(times: times, values: lower, end: end, backwards: true)
    body.append(
      "\" fill=\"\(fill)\"><title>\(HTMLDocument.escape(title))</title></polygon>")
  }

  package mutating func stepLine(
    times: [Double], values: [Double], end: Double, stroke: String, dash: String?, title: String
  ) {
    guard !times.isEmpty else { return }
    body.append("<polyline points=\"")
    steps(times: times, values: values, end: end)
    body.append(
      "\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"0.8\"\(dash.map { " stroke-dasharray=\"\($0)\"" } ?? "")><title>\(HTMLDocument.escape(title))</title></polyline>"
    )
  }

  /// The points of a step function, two a step (each value holds from its time until the next
  /// time, the last until `end`): left to right, the first starting the list, or `backwards`, right
  /// to left, continuing it (an area's lower edge).
  private mutating func steps(
    times: [Double], values: [Double], end: Double, backwards: Bool = false
  ) {
    for step in times.indices {
      let index = backwards ? times.count - 1 - step : step
      let start = x(times[index])
      let stop = x(index + 1 < times.count ? times[index + 1] : end)
      let level = y(values[index])
      point(backwards ? stop : start, level, first: step == 0 && !backwards)
      point(backwards ? start : stop, level)
    }
  }

  /// One point of a polygon or polyline, `x,y`, after a space unless it is the `first`.
  private mutating func point(_ x: Double, _ y: Double, first: Bool = false) {
    body.appendRecord(maxBytes: 2 * FixedPoint.maxFixedBytes(scaleDigits: 1) + 2) { point in
      if !first { point.append(" ") }
      point.append(oneDecimal: x)
      point.append(",")
      point.append(oneDecimal: y)
    }
  }

  package mutating func horizontalLine(
    _ value: Double, stroke: String, dash: String?, title: String
  ) {
    body.append(
      "<line x1=\"\(n(left))\" y1=\"\(n(y(value)))\" x2=\"\(n(left + width))\" y2=\"\(n(y(value)))\" stroke=\"\(stroke)\" stroke-width=\"1.5\"\(dash.map { " stroke-dasharray=\"\($0)\"" } ?? "")><title>\(HTMLDocument.escape(title))</title></line>"
    )
  }

  /// Items grouped, in time order, so that groups stand at least `width` pixels apart: an item
  /// less than `width` to the right of its group's first item joins it. Each group is drawn at its
  /// first item's position (rounded to a pixel).
  package func columns<Item>(of items: [Item], width: Double = 1, time: (Item) -> Double) -> [(
    x: Double, items: [Item]
  )] {
    var groups: [(x: Double, items: [Item])] = []
    var groupStart = -Double.infinity
    for item in items {
      let position = x(time(item))
      if position - groupStart < width, !groups.isEmpty {
        groups[groups.count - 1].items.append(item)
      } else {
        groups.append((position.rounded(), [item]))
        groupStart = position
      }
    }
    return groups
  }

  /// A lane's segments (the last lasting until `endMs`) merged so that none starts within a pixel
  /// of the one before: each pixel column shows the state held longest in it, so a lane has at
  /// most one bar per pixel, however long the run (`TimelineRecorder.Segment.merged`).
  package func coalesced(_ segments: [TimelineRecorder.Segment], endMs: Int)
    -> [TimelineRecorder.Segment]
  {
    TimelineRecorder.Segment.merged(segments, endMs: endMs) { kept, start in
      x(Double(start)) - x(Double(kept)) < 1
    }
  }

  /// A kill: a downward triangle on the top edge of the plot, with a tick down the plot.
  package mutating func killMarker(atX px: Double, title: String) {
    body.append("<g class=\"kill\"><title>\(HTMLDocument.escape(title))</title>")
    body.append(
      "<line x1=\"\(n(px))\" y1=\"\(n(top))\" x2=\"\(n(px))\" y2=\"\(n(top + height))\"/>")
    body.append("<path d=\"M\(n(px - 5)) \(n(top - 10))h10l-5 9z\"/></g>")
  }

  /// A lane's name, right-aligned in the left margin; a name too long for it (about 7 px a
  /// character) keeps its end, which tells processes apart (`…WebKit.WebContent#758`), and
  /// shows the whole name on hover.
  package mutating func laneLabel(row: Int, text: String) {
    let fits = max(4, Int((left - 12) / 7))
    let shown = text.count > fits ? "…" + text.suffix(fits - 1) : text
    let title = shown == text ? "" : "<title>\(HTMLDocument.escape(text))</title>"
    body.append(
      "<text x=\"\(n(left - 8))\" y=\"\(n(top + Double(row) * 18 + 13))\" text-anchor=\"end\">\(title)\(HTMLDocument.escape(shown))</text>"
    )
  }

  /// A bar on lane `row` from `start` to `end` (at least 0.6 px wide), filled with `fill`, its
  /// tooltip written by `title` (at most `titleBytes` bytes, escaped as it writes).
  package mutating func laneBar(
    row: Int, from start: Double, to end: Double, fill: [UInt8], titleBytes: Int,
    title: (inout CSVCursor) -> Void
  ) {
    let x0 = x(start)
    let width = max(x(end) - x0, 0.6)
    let y = top + Double(row) * 18 + 3
    body.appendRecord(maxBytes: 160 + fill.count + titleBytes) { mark in
      mark.append("<rect x=\"")
      mark.append(oneDecimal: x0)
      mark.append("\" y=\"")
      mark.append(oneDecimal: y)
      mark.append("\" width=\"")
      mark.append(oneDecimal: width)
      mark.append("\" height=\"12\" fill=\"")
      mark.append(fill)
      mark.append("\"><title>")
      title(&mark)
      mark.append("</title></rect>")
    }
  }

  /// A mark on lane `row` at `px`: a triangle for a cold launch, a dot for a warm resume, a cross
  /// for a kill; its tooltip written by `title` (at most `titleBytes` bytes, escaped as it writes).
  package mutating func laneMark(
    row: Int, atX px: Double, kind: TimelineRecorder.Mark, titleBytes: Int,
    title: (inout CSVCursor) -> Void
  ) {
    let cy = top + Double(row) * 18 + 9
    body.appendRecord(maxBytes: 160 + titleBytes) { mark in
      mark.append("<g><title>")
      title(&mark)
      mark.append("</title>")
      switch kind {
      case .coldLaunch:
        mark.append("<path d=\"M")
        mark.append(oneDecimal: px)
        mark.append(" ")
        mark.append(oneDecimal: cy - 6)
        mark.append("l4 7h-8z\" class=\"mark\"/>")
      case .warmResume:
        mark.append("<circle cx=\"")
        mark.append(oneDecimal: px)
        mark.append("\" cy=\"")
        mark.append(oneDecimal: cy)
        mark.append("\" r=\"2.6\" class=\"mark\"/>")
      case .kill:
        mark.append("<path d=\"M")
        mark.append(oneDecimal: px - 4)
        mark.append(" ")
        mark.append(oneDecimal: cy - 4)
        mark.append("l8 8m0 -8l-8 8\" class=\"cross\"/>")
      }
      mark.append("</g>")
    }
  }

  /// Appends markup drawn by an extension.
  package mutating func appendRaw(_ markup: String) { body.append(markup) }

  /// The same chart with nothing drawn yet, not even its opening tag: to draw part of its marks
  /// elsewhere (on another thread) and add them with `markup`.
  package func blank() -> SVGChart {
    var copy = self
    copy.body = MarkupBytes()
    return copy
  }

  /// What was drawn so far, without the closing tag.
  package var markup: MarkupBytes { body }

  package func finish() -> String { finishedMarkup().text }

  /// The chart, closed: what `finish()` returns, as bytes.
  package func finishedMarkup() -> MarkupBytes {
    var done = body
    done.append("</svg>")
    return done
  }
}
