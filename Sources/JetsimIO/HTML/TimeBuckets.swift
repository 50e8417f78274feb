import JetsimCore

/// Items in time order (kills, launches) as a chart draws them: every item while there are at most
/// `exactLimit`, then only per time bucket, its first `keep` items and its count (buckets twice as
/// wide whenever there would be more than `maxBuckets`), so that memory stays bounded however long
/// the run. Drawn one group per pixel column either way; with every item kept, exactly as
/// `SVGChart.columns(of:width:time:)` groups them.
package struct TimeBuckets<Item: Sendable>: Sendable {
  /// One bucket, or one pixel column once drawn: its first items and how many it holds.
  package struct Group: Sendable {
    /// The time of its first item.
    package var timeMs: Int
    /// Its first items (at most `keep`).
    package var items: [Item]
    /// How many items it holds.
    package var count: Int
  }

  /// Items kept in each group: those a tooltip names.
  package let keep: Int
  /// Items kept one by one before they go into buckets.
  package let exactLimit: Int
  /// The most buckets kept: past it, they merge two by two.
  package let maxBuckets: Int
  /// Every item, while there are at most `exactLimit`.
  private var exact: [(timeMs: Int, item: Item)] = []
  /// The buckets, in time order, once there were more, in three arrays (a run's marks are
  /// thousands of buckets for each app): the time of each bucket's first item, how many it holds
  /// (at most `UInt32.max`: a tooltip's count), and its first items (none while `keep` is 0).
  private var bucketTimes: [Int] = []
  private var bucketCounts: [UInt32] = []
  private var bucketItems: [[Item]] = []
  private var bucketMs = 1
  private var bucketed = false
  /// How many items were added.
  package private(set) var count = 0

  package init(keep: Int, exactLimit: Int, maxBuckets: Int = .max) {
    self.keep = keep
    self.exactLimit = exactLimit
    self.maxBuckets = max(1, maxBuckets)
  }

  /// Adds `item`, at `timeMs` (not before the last item's), with buckets `bucketMs` wide (or
  /// wider, `bucketMs` doubled, where `maxBuckets` asks for it).
  package mutating func append(_ item: Item, at timeMs: Int, bucketMs: Int) {
    count += 1
    if !bucketed {
      exact.append((timeMs, item))
      guard exact.count > exactLimit else { return }
      bucketed = true
      self.bucketMs = bucketMs
      // Room for every bucket there can be at once (one more than `maxBuckets` before a merge),
      // not twice that as arrays grow: thousands of lanes keep their marks in buckets.
      let room = min(maxBuckets, exact.count) + 1
      bucketTimes.reserveCapacity(room)
      bucketCounts.reserveCapacity(room)
      if keep > 0 { bucketItems.reserveCapacity(room) }
      for (time, kept) in exact { add(kept, at: time) }
      exact = []
      return
    }
    if bucketMs > self.bucketMs { coarsen(to: bucketMs) }
    add(item, at: timeMs)
  }

  private mutating func add(_ item: Item, at timeMs: Int) {
    if let last = bucketTimes.last, last / bucketMs == timeMs / bucketMs {
      let index = bucketTimes.count - 1
      bucketCounts[index] = bucketCounts[index] == .max ? .max : bucketCounts[index] + 1
      if keep > 0, bucketItems[index].count < keep { bucketItems[index].append(item) }
    } else {
      bucketTimes.append(timeMs)
      bucketCounts.append(1)
      if keep > 0 {
        // Its whole room at once: a bucket's items grow to `keep` without moving.
        var items = [item]
        items.reserveCapacity(keep)
        bucketItems.append(items)
      }
      // Sparse buckets may not merge at one doubling: double until they are few enough.
      while bucketTimes.count > maxBuckets { coarsen(to: 2 * bucketMs) }
    }
  }

  /// Bucket `index` as a group.
  private func bucket(_ index: Int) -> Group {
    Group(
      timeMs: bucketTimes[index], items: keep > 0 ? bucketItems[index] : [],
      count: Int(bucketCounts[index]))
  }

  /// Merges buckets into `width`-wide ones (a multiple of the current width).
  package mutating func coarsen(to width: Int) {
    guard bucketed, width > bucketMs else { return }
    bucketMs = width
    var kept = 0
    for index in bucketTimes.indices {
      if kept > 0, bucketTimes[kept - 1] / width == bucketTimes[index] / width {
        let sum = UInt64(bucketCounts[kept - 1]) + UInt64(bucketCounts[index])
        bucketCounts[kept - 1] = UInt32(min(sum, UInt64(UInt32.max)))
        if keep > 0 {
          bucketItems[kept - 1] += bucketItems[index].prefix(
            max(0, keep - bucketItems[kept - 1].count))
        }
        continue
      }
      bucketTimes[kept] = bucketTimes[index]
      bucketCounts[kept] = bucketCounts[index]
      // Moved, not shared: a bucket merged into later stays the only owner of its items.
      if keep > 0, kept != index { bucketItems.swapAt(kept, index) }
      kept += 1
    }
    bucketTimes.removeLast(bucketTimes.count - kept)
    bucketCounts.removeLast(bucketCounts.count - kept)
    if keep > 0 { bucketItems.removeLast(bucketItems.count - kept) }
  }

  /// The groups to draw on `chart`, at least `width` pixels apart, each at the position of its
  /// first item: with every item kept, exactly `SVGChart.columns(of:width:time:)`.
  package func columns(on chart: SVGChart, width: Double = 1) -> [(x: Double, group: Group)] {
    if !bucketed {
      return chart.columns(of: exact, width: width) { Double($0.timeMs) }.map { column in
        (
          column.x,
          Group(
            timeMs: column.items[0].timeMs, items: column.items.prefix(keep).map(\.item),
            count: column.items.count)
        )
      }
    }
    var result: [(x: Double, group: Group)] = []
    var groupStart = -Double.infinity
    for index in bucketTimes.indices {
      let bucket = bucket(index)
      let position = chart.x(Double(bucket.timeMs))
      if position - groupStart < width, var last = result.last?.group {
        last.count += bucket.count
        last.items += bucket.items.prefix(max(0, keep - last.items.count))
        result[result.count - 1].group = last
      } else {
        result.append((position.rounded(), bucket))
        groupStart = position
      }
    }
    return result
  }
}
