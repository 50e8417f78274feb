/// The project's own seeded generator: xoshiro256** seeded through SplitMix64.
///
/// jetsim never uses the system generator, whose algorithm may change between releases. Each source
/// of randomness gets its own stream (`RandomStream(seed:stream:)`), so that, for example, changing the
/// eviction policy never changes the workload's draws.
public struct RandomStream: RandomNumberGenerator, Sendable {
  /// The independent sources of randomness in a run.
  public enum Source: UInt64, Sendable {
    /// The workload's own draws (`RandomWorkload`).
    case workload = 1
    /// The system's wakes of background apps.
    case backgroundWakes = 2
    /// A policy's draws (`random`).
    case policy = 3
    /// The user model's draws of the user's timeline.
    case userModel = 4
  }

  private var s0: UInt64
  private var s1: UInt64
  private var s2: UInt64
  private var s3: UInt64

  /// A stream for `source`, derived from the run's `seed`.
  public init(seed: UInt64, source: Source) {
    self.init(seed: seed, stream: source.rawValue)
  }

  /// A stream numbered `stream`, derived from `seed`. Different numbers give independent streams.
  public init(seed: UInt64, stream: UInt64) {
    var mixer = seed ^ (stream &* 0x9E37_79B9_7F4A_7C15)
    s0 = Self.splitMix(&mixer)
    s1 = Self.splitMix(&mixer)
    s2 = Self.splitMix(&mixer)
    s3 = Self.splitMix(&mixer)
  }

  private static func splitMix(_ state: inout UInt64) -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
    let t = s1 << 17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << 45) | (s3 >> 19)
    return result
  }

  /// A uniform integer in `0..<bound` (Lemire's method, unbiased). `bound` must be positive.
  public mutating func below(_ bound: Int) -> Int {
    precondition(bound > 0, "bound must be positive")
    let bound64 = UInt64(bound)
    var product = next().multipliedFullWidth(by: bound64)
    if product.low < bound64 {
      let threshold = (0 &- bound64) % bound64
      while product.low < threshold {
        product = next().multipliedFullWidth(by: bound64)
      }
    }
    return Int(product.high)
  }

  /// A uniform double in `[0, 1)` with 53 random bits.
  public mutating func unit() -> Double {
    Double(next() >> 11) * 0x1.0p-53
  }
}

extension RandomStream {
  /// A standard normal draw (Marsaglia's polar method: square roots and logarithms only, both the
  /// same on every platform).
  mutating func normal() -> Double {
    while true {
      let u = 2 * unit() - 1
      let v = 2 * unit() - 1
      let s = u * u + v * v
      if s > 0, s < 1 { return u * (-2 * PortableMath.log(s) / s).squareRoot() }
    }
  }
}
