import Foundation

/// The page geometry a real browser engine lays out: each top-level chart's left and right edge
/// and its x axis line's, in CSS pixels, and every drawn element (text included, which only a
/// browser can measure) that pokes out of its chart.
public struct BrowserGeometry: Sendable {
  /// A top-level `<svg>` chart of the page, in page order.
  public struct Chart: Sendable {
    public var left: Double
    public var right: Double
    /// Where its x axis line starts and ends (nil: it has none).
    public var axis: (left: Double, right: Double)?
  }

  public var charts: [Chart]
  /// One line per element outside its chart: its tag, its text and where it is.
  public var outside: [String]

  /// The headless Chromium this machine has (`chromium`, `chromium-browser` or `google-chrome` on
  /// the `PATH`), or nil: the tests that need it are skipped, and the SVG geometry checks
  /// (`chartGeometryProblems`) stand alone.
  public static let browser: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for name in ["chromium", "chromium-browser", "google-chrome"] {
      for folder in path.split(separator: ":") {
        let candidate = "\(folder)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      }
    }
    return nil
  }()

  /// The script added to a copy of the page (the page itself has none): it measures and writes
  /// what it found into a `<pre>` that `--dump-dom` prints.
  static let script = """
    <script>
    //<![CDATA[
    var out = [];
    [].slice.call(document.querySelectorAll('body > svg')).forEach(function (svg, i) {
      var box = svg.getBoundingClientRect();
      var axis = svg.querySelector('g.axis line');
      var a = axis ? axis.getBoundingClientRect() : null;
      out.push('chart ' + box.left + ' ' + box.right + (a ? ' ' + a.left + ' ' + a.right : ''));
      [].slice.call(svg.querySelectorAll('text,rect,line,path,circle,polygon,polyline')).forEach(
        function (e) {
          var r = e.getBoundingClientRect();
          if (r.width == 0 && r.height == 0) return;
          if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5
              || r.bottom > box.bottom + 0.5)
            out.push('outside chart ' + i + ': ' + e.tagName + ' "'
              + (e.textContent || '').slice(0, 40) + '" at x ' + r.left.toFixed(1) + ' to '
              + r.right.toFixed(1) + ', y ' + r.top.toFixed(1) + ' to ' + r.bottom.toFixed(1));
        });
    });
    var pre = document.createElement('pre');
    pre.id = 'jetsim-geometry';
    pre.textContent = out.join('\\n');
    document.body.appendChild(pre);
    //]]>
    </script>
    """

  /// Lays `html` out in the browser, 1200 × 900 pixels, and measures it; nil without a browser.
  public static func measure(_ html: String, in scratch: String) throws -> BrowserGeometry? {
    guard let browser else { return nil }
    let page = "\(scratch)/measured.html"
    try html.replacingOccurrences(of: "</body>", with: script + "</body>")
      .write(toFile: page, atomically: true, encoding: .utf8)
    let outcome = try runProcess(
      URL(fileURLWithPath: browser),
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1200,900",
        "--user-data-dir=\(scratch)/profile", "--dump-dom", "file://\(page)",
      ], in: scratch)
    guard let start = outcome.output.range(of: "<pre id=\"jetsim-geometry\">"),
      let end = outcome.output[start.upperBound...].range(of: "</pre>")
    else {
      throw CocoaError(
        .fileReadCorruptFile,
        userInfo: [NSLocalizedDescriptionKey: "\(browser) printed no geometry: \(outcome.errors)"])
    }
    var geometry = BrowserGeometry(charts: [], outside: [])
    for line in outcome.output[start.upperBound..<end.lowerBound].split(separator: "\n") {
      let fields = line.split(separator: " ").dropFirst().compactMap { Double($0) }
      if line.hasPrefix("chart "), fields.count >= 2 {
        geometry.charts.append(
          Chart(
            left: fields[0], right: fields[1],
            axis: fields.count == 4 ? (fields[2], fields[3]) : nil))
      } else if line.hasPrefix("outside") {
        geometry.outside.append(String(line))
      }
    }
    return geometry
  }
}
