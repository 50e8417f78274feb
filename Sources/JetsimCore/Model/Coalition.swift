/// A process's role in its jetsam coalition (`COALITION_TASKROLE_*`, xnu-11417
/// osfmk/mach/coalition.h:85–97): an app leads its own, with its extensions and XPC services
/// beside it. The role decides where the process falls when the kernel sorts the FOREGROUND band
/// by coalition (`memorystatus_sort_by_largest_coalition_locked`, kern_memorystatus.c:9235):
/// inside a coalition, the undefined members die first, then the extensions, the XPC services, and
/// the leader last.
public enum CoalitionRole: String, CaseIterable, Sendable {
  /// The coalition's leader (`COALITION_TASKROLE_LEADER`): at most one a coalition.
  case leader
  /// An XPC service of the leader (`COALITION_TASKROLE_XPC`).
  case xpc
  /// An extension of the leader (`COALITION_TASKROLE_EXT`).
  case `extension`
  /// A member without a role (`COALITION_TASKROLE_UNDEF`).
  case undefined

  /// Its place when a sorted coalition is laid out from the head of the band: the first dies
  /// first.
  package var killRank: UInt8 {
    switch self {
    case .undefined: 0
    case .extension: 1
    case .xpc: 2
    case .leader: 3
    }
  }
}
