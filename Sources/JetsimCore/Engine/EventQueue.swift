/// The discrete-event loop's agenda: a binary min-heap of payloads ordered by time, then by the order
/// they were scheduled.
///
/// Time is an integer count of milliseconds. Two events at the same instant come out in the order
/// they were scheduled (a sequence number breaks the tie), so a run is deterministic; an event
/// scheduled `last` comes out after every other event of its instant. The clock moves
/// only when an event is popped, and nothing may be scheduled before the current time.
/// The queue knows nothing of apps: the simulation decides what a payload means.
package struct EventQueue<Payload> {
  struct Entry {
    var time: Int
    var sequence: Int
    var payload: Payload

    func precedes(_ other: Entry) -> Bool {
      time != other.time ? time < other.time : sequence < other.sequence
    }
  }

  private var heap: [Entry] = []
  private var nextSequence = 0
  /// The current simulated time in milliseconds: the time of the last event popped.
  package private(set) var now = 0

  /// An empty queue at time 0, with room for `capacity` pending events before it grows.
  package init(capacity: Int = 64) {
    heap.reserveCapacity(capacity)
  }

  /// The number of pending events.
  package var count: Int { heap.count }
  /// Whether no event is pending.
  package var isEmpty: Bool { heap.isEmpty }
  /// The time of the next event, if any.
  package var nextTime: Int? { heap.first?.time }

  /// Schedules `payload` at `time`, which must not be before `now`: after the events already
  /// scheduled at `time`, or, `last`, after every event of that instant that is not itself `last`.
  ///
  /// - Complexity: O(log *n*).
  package mutating func schedule(at time: Int, _ payload: Payload, last: Bool = false) {
    precondition(time >= now, "cannot schedule an event in the past (\(time) < \(now))")
    let sequence = last ? Int.max / 2 + nextSequence : nextSequence
    heap.append(Entry(time: time, sequence: sequence, payload: payload))
    nextSequence += 1
    siftUp(heap.count - 1)
  }

  /// Removes and returns the earliest event, advancing `now` to its time.
  ///
  /// - Complexity: O(log *n*).

  package mutating func pop() -> (time: Int, payload: Payload)? {
    guard let first = heap.first else { return nil }
    let last = heap.removeLast()
    if !heap.isEmpty {
      heap[0] = last
      siftDown(0)
    }
    now = first.time
    return (first.time, first.payload)
  }

  /// Moves the clock to `time` without an event (for work driven from outside the queue, such as a
  /// workload read in time order). `time` must not be before `now` nor after the next pending event.

  package mutating func advance(to time: Int) {
    precondition(time >= now, "cannot move the clock back (\(time) < \(now))")
    precondition(heap.first.map { time <= $0.time } ?? true, "would skip a pending event")
    now = time
  }

  // Both sifts work in the heap's buffer: one check that it is unique a sift, not one a level.
  mutating func siftUp(_ start: Int) {
    heap.withUnsafeMutableBufferPointer { heap in
      var child = start
      let entry = heap[child]
      while child > 0 {
        let parent = (child &- 1) / 2
        guard entry.precedes(heap[parent]) else { break }
        heap[child] = heap[parent]
        child = parent
      }
      heap[child] = entry
    }
  }

  mutating func siftDown(_ start: Int) {
    heap.withUnsafeMutableBufferPointer { heap in
      var parent = start
      let entry = heap[parent]
      let count = heap.count
      while true {
        var child = 2 &* parent &+ 1
        guard child < count else { break }
        if child &+ 1 < count, heap[child &+ 1].precedes(heap[child]) { child &+= 1 }
        guard heap[child].precedes(entry) else { break }
        heap[parent] = heap[child]
        parent = child
      }
      heap[parent] = entry
    }
  }
}

extension EventQueue: Sendable where Payload: Sendable {}
extension EventQueue.Entry: Sendable where Payload: Sendable {}
