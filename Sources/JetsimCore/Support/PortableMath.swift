/// `log`, `exp` and `pow` from +, −, ×, ÷ and exact scaling only, so they give the same bits on every
/// platform (the system's libm may differ in the last bit between Linux and macOS, which could change
/// a seeded run). Accurate to a few units in the last place; used by the user model's distributions.
package enum PortableMath {
  static let ln2 = 0.693_147_180_559_945_309_417_232_121_458
  // ln 2 split so that k × ln2Hi is exact for the k that occur (Cody and Waite).
  static let ln2Hi = 6.931_471_803_691_238_164_90e-01
  static let ln2Lo = 1.908_214_929_270_587_700_02e-10

  /// The natural logarithm of `x` (> 0).
  package static func log(_ x: Double) -> Double {
    guard x > 0, x.isFinite else { return x == 0 ? -.infinity : .nan }
    // x = m × 2^e with m in [1, 2); log m = 2 atanh((m − 1) / (m + 1)), a fast series for z ≤ 1/3.
    let e = Double(x.exponent)
    let m = x.significand
    let z = (m - 1) / (m + 1)
    let z2 = z * z
    var term = z
    var sum = 0.0
    var k = 1.0
    while k < 60 {
      sum += term / k
      term *= z2
      k += 2
    }
    return 2 * sum + e * ln2
  }

  /// e to the power `x`.
  package static func exp(_ x: Double) -> Double {
    guard x.isFinite else { return x > 0 ? .infinity : (x.isNaN ? .nan : 0) }
    if x > 709 { return .infinity }
    if x < -745 { return 0 }
    // x = k ln2 + r with |r| ≤ ln2 / 2; e^r by its Taylor series, then scaled by 2^k exactly.
    let k = (x / ln2).rounded()
    let r = (x - k * ln2Hi) - k * ln2Lo
    var term = 1.0
    var sum = 1.0
    for n in 1...24 {
      term *= r / Double(n)
      sum += term
    }
    return sum * pow2(Int(k))
  }

  /// `base` (> 0) to the power `exponent`.
  package static func pow(_ base: Double, _ exponent: Double) -> Double {
    exp(exponent * log(base))
  }

  /// 2 to the power `k`, exactly (via two steps, so subnormal results are reached too).
  static func pow2(_ k: Int) -> Double {
    let half = k / 2
    return Double(sign: .plus, exponent: half, significand: 1)
      * Double(sign: .plus, exponent: k - half, significand: 1)
  }
}
