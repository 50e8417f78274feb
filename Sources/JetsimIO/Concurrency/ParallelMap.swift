import Dispatch
import JetsimCore

/// Runs independent jobs on several threads and returns their results in job order, so the output
/// never depends on how many threads ran or in which order they finished.
package enum ParallelMap {
  private final class State<Result>: @unchecked Sendable {
    let lock = Lock()
    var next = 0
    var finished = 0
    var results: [Result?]
    var failures: [(index: Int, error: any Error)] = []

    init(count: Int) { results = Array(repeating: nil, count: count) }
  }

  /// `work(0)`, …, `work(count − 1)` on up to `jobs` threads. `progress` is told the number of jobs
  /// finished after each one, one call at a time. If jobs throw, the error of the lowest-numbered
  /// failed job is thrown (the same whatever the timing), after the running jobs finish.
  package static func run<Result: Sendable>(
    count: Int, jobs: Int, progress: (@Sendable (Int) -> Void)? = nil,
    _ work: @Sendable @escaping (Int) throws -> Result
  ) throws -> [Result] {
    let state = State<Result>(count: count)
    DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, count))) { _ in
      while true {
        state.lock.lock()
        guard state.failures.isEmpty, state.next < count else {
          state.lock.unlock()
          return
        }
        let index = state.next
        state.next += 1
        state.lock.unlock()
        do {
          let result = try work(index)
          state.lock.lock()
          state.results[index] = result
          state.finished += 1
          progress?(state.finished)
          state.lock.unlock()
        } catch {
          state.lock.lock()
          state.failures.append((index, error))
          state.lock.unlock()
        }
      }
    }
    if let failure = state.failures.min(by: { $0.index < $1.index }) { throw failure.error }
    return state.results.compactMap { $0 }
  }

  /// `run` for jobs that cannot fail.
  package static func map<Result: Sendable>(
    count: Int, jobs: Int, _ work: @Sendable @escaping (Int) -> Result
  ) -> [Result] {
    // A job that cannot throw leaves `run` nothing to throw.
    (try? run(count: count, jobs: jobs) { work($0) }) ?? []
  }

  /// `run` for jobs that run simulations of `scenario`: a job's `JetsimError` is thrown as it is;
  /// any other error (which simulations do not throw) is named as a failed run of the scenario.
  package static func runs<Result: Sendable>(
    of scenario: Scenario, count: Int, jobs: Int, progress: (@Sendable (Int) -> Void)? = nil,
    _ work: @Sendable @escaping (Int) throws -> Result
  ) throws(JetsimError) -> [Result] {
    do {
      return try run(count: count, jobs: jobs, progress: progress, work)
    } catch {
      throw (error as? JetsimError)
        ?? .invalidValue(
          path: scenario.origin, keyPath: "run", value: "\(error)", expected: "a run")
    }
  }
}
