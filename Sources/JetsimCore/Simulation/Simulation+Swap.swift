/// App swap (M-series iPads; xnu `memorystatus_swap_all_apps`, docs/model.md §7) and zram
/// (Android): a suspended app's memory goes to swap as it suspends, if the swap budget holds it,
/// and then occupies no physical memory (app swap, on storage) or its compressed copy (zram, in
/// RAM); it comes back into memory (an allocation like any other) when the app resumes,
/// and leaves swap when it dies. An app that suspends while swap is full waits in memory; when an
/// app leaves swap, the waiting ones go out, oldest suspended first.
extension Simulation {
  /// Sends suspended app `app` to swap if it fits (a `swap-out` row).
  mutating func swapOut(_ app: Int) {
    let footprint = apps[app].footprintKB
    guard !apps[app].isSystemProcess, apps[app].state == .suspended, !apps[app].isSwapped,
      footprint > 0, footprint <= memory.swapFreeKB
    else { return }
    swapShareKB[app] = footprint
    memory.swappedKB += footprint
    apps[app].isSwapped = true
    refresh(app)
    note(app, .swapOut)
  }

  /// Takes `app`'s memory out of swap (it resumes or dies), then lets the apps waiting for swap go
  /// out.
  mutating func swapIn(_ app: Int) {
    memory.swappedKB -= swapShareKB[app]
    swapShareKB[app] = 0
    apps[app].isSwapped = false
    pendingSwapOut = true
  }

  /// The suspended apps waiting in memory for swap go out, oldest suspended first, while it holds
  /// them; not the one whose allocation waits for room (it is resuming: the room it asked for
  /// counts the memory it holds now).
  ///
  /// - Complexity: O(*a* log *a*) for *a* apps; only after an app left swap. Inlined: it is
  /// called after every change to memory, and almost always has nothing to do.
  @inline(__always)
  mutating func swapOutWaiting() {
    if pendingSwapOut { swapOutWaitingApps() }
  }

  /// `swapOutWaiting`'s work, once an app has left swap.
  private mutating func swapOutWaitingApps() {
    pendingSwapOut = pendingApp >= 0
    let waiting = (0..<appCount).filter {
      apps[$0].state == .suspended && !apps[$0].isSwapped && $0 != pendingApp
    }.sorted { (apps[$0].enteredStateMs, $0) < (apps[$1].enteredStateMs, $1) }
    for app in waiting { swapOut(app) }
  }
}
