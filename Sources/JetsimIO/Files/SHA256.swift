import JetsimCore

/// SHA-256 (FIPS 180-4), for the digests of a run's inputs in `run.json`.
package enum SHA256 {
  /// The round constants: the first 32 bits of the fractional parts of the cube roots of the first
  /// 64 primes (FIPS 180-4 §4.2.2).
  fileprivate static let k = primes.map { rootBits($0, 3) }
  /// The initial hash value: the same of the square roots of the first 8 primes (§5.3.3).
  fileprivate static let initialHash = primes.prefix(8).map { rootBits($0, 2) }
  private static let primes = Array(
    (2...).lazy.filter { n in !(2..<n).contains { n % $0 == 0 } }.prefix(64))

  /// The first 32 bits of the fractional part of `prime`'s `n`th root (`n` 2 or 3, `prime` below
  /// 2¹⁰): the largest r with r^n ≤ prime × 2^(32n), found exactly by bisection on integers, then
  /// its low 32 bits.
  static func rootBits(_ prime: Int, _ n: Int) -> UInt32 {
    let scaled = (high: UInt64(prime) << (32 * n - 64), low: UInt64(0))
    var (below, above): (UInt64, UInt64) = (0, 1 << 36)
    while above - below > 1 {
      let middle = (below + above) / 2
      if power(middle, n) <= scaled { below = middle } else { above = middle }
    }
    return UInt32(truncatingIfNeeded: below)
  }

  /// `value` to the power `n`, as the high and low words of a 128-bit number (it must fit).
  private static func power(_ value: UInt64, _ n: Int) -> (high: UInt64, low: UInt64) {
    var result: (high: UInt64, low: UInt64) = (0, 1)
    for _ in 0..<n {
      let low = result.low.multipliedFullWidth(by: value)
      result = (result.high &* value &+ low.high, low.low)
    }
    return result
  }

  /// The digest of `bytes` as 64 lowercase hexadecimal digits.
  package static func hex(_ bytes: some Collection<UInt8>) -> String {
    var hasher = Hasher()
    hasher.update(Array(bytes))
    return hasher.hex()
  }

  /// A digest computed piece by piece, for a file read in chunks.
  package struct Hasher: Sendable {
    private var h = SHA256.initialHash
    /// Bytes waiting for a full 64-byte block.
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    package init() { pending.reserveCapacity(64) }

    /// Adds `bytes` to the message.
    package mutating func update(_ bytes: some Collection<UInt8>) {
      Array(bytes).withUnsafeBytes { update($0) }
    }

    /// Adds `bytes` to the message: whole blocks straight from the buffer, the rest kept.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
      length &+= UInt64(bytes.count)
      var offset = 0
      if !pending.isEmpty {
        let take = min(64 - pending.count, bytes.count)
        pending.append(contentsOf: bytes[0..<take])
        offset = take
        if pending.count == 64 {
          let block = pending
          block.withUnsafeBytes { compress($0) }
          pending.removeAll(keepingCapacity: true)
        }
      }
      while bytes.count - offset >= 64 {
        compress(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + 64)]))
        offset += 64
      }
      pending.append(contentsOf: bytes[offset...])
    }

    /// The 32-byte digest of everything added.
    package mutating func finalize() -> [UInt8] {
      let bitLength = length &* 8
      var tail = pending
      tail.append(0x80)
      while tail.count % 64 != 56 { tail.append(0) }
      for shift in stride(from: 56, through: 0, by: -8) {
        tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
      }
      tail.withUnsafeBytes { tail in
        for start in stride(from: 0, to: tail.count, by: 64) {
          compress(UnsafeRawBufferPointer(rebasing: tail[start..<(start + 64)]))
        }
      }
      return h.flatMap { word in
        (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * $0)) }
      }
    }

    /// The digest as 64 lowercase hexadecimal digits.
    package mutating func hex() -> String {
      finalize().map { byte in
        let text = String(byte, radix: 16)
        return byte < 16 ? "0" + text : text
      }.joined()
    }

    /// One 64-byte block. The message schedule lives in a stack buffer and the constants are read
    /// through a pointer: no array checks in the loop that hashes every byte of a trace.
    private mutating func compress(_ bytes: UnsafeRawBufferPointer) {
      var (a, b, c, d, e, f, g, hh) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
      // b ^ c, which Maj of the first round needs; each round leaves the next its own a ^ b.
      var bc = b ^ c
      withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
        for i in 0..<16 {
          w[i] = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))
        }
        // Four words a turn, the loop counted and tested once for them (two or eight cost more).
        for i in stride(from: 16, to: 64, by: 4) {
          for j in i..<(i + 4) {
            // σ0 and σ1 with their rotations nested: ROTR7(x ^ ROTR11(x)) is ROTR7 ^ ROTR18.
            let s0 = rotate(w[j - 15] ^ rotate(w[j - 15], 11), 7) ^ (w[j - 15] >> 3)
            let s1 = rotate(w[j - 2] ^ rotate(w[j - 2], 2), 17) ^ (w[j - 2] >> 10)
            w[j] = w[j - 16] &+ s0 &+ w[j - 7] &+ s1
          }
        }
        SHA256.k.withUnsafeBufferPointer { k in
          // Eight rounds at a time, the working variables taking each other's places by name
          // instead of being moved along each round.
          for i in stride(from: 0, to: 64, by: 8) {
            round(a, b, &d, e, f, g, &hh, k[i] &+ w[i], &bc)
            round(hh, a, &c, d, e, f, &g, k[i + 1] &+ w[i + 1], &bc)
            round(g, hh, &b, c, d, e, &f, k[i + 2] &+ w[i + 2], &bc)
            round(f, g, &a, b, c, d, &e, k[i + 3] &+ w[i + 3], &bc)
            round(e, f, &hh, a, b, c, &d, k[i + 4] &+ w[i + 4], &bc)
            round(d, e, &g, hh, a, b, &c, k[i + 5] &+ w[i + 5], &bc)
            round(c, d, &f, g, hh, a, &b, k[i + 6] &+ w[i + 6], &bc)
            round(b, c, &e, f, g, hh, &a, k[i + 7] &+ w[i + 7], &bc)
          }
        }
      }
      h[0] = h[0] &+ a
      h[1] = h[1] &+ b
      h[2] = h[2] &+ c
      h[3] = h[3] &+ d
      h[4] = h[4] &+ e
      h[5] = h[5] &+ f
      h[6] = h[6] &+ g
      h[7] = h[7] &+ hh
    }

    /// One round: `d` and `h` take their new values (`h` becomes the next round's `a`, `d` its
    /// `e`); FIPS 180-4 §6.2.2, step 3. The three rotations of Σ0 and Σ1 are nested
    /// (ROTR6(e ^ ROTR5(e ^ ROTR14(e))) is ROTR6 ^ ROTR11 ^ ROTR25), Ch is g ^ (e & (f ^ g)), and
    /// Maj(a, b, c) is b ^ ((a ^ b) & (b ^ c)), with `bc` the b ^ c that the round before
    /// computed as its a ^ b (this round's a ^ b is left in it for the next): `c` itself is not
    /// read.
    @inline(__always) private func round(
      _ a: UInt32, _ b: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32,
      _ h: inout UInt32, _ constantAndWord: UInt32, _ bc: inout UInt32
    ) {
      let temp1 =
        h &+ rotate(e ^ rotate(e ^ rotate(e, 14), 5), 6) &+ (g ^ (e & (f ^ g))) &+ constantAndWord
      let ab = a ^ b
      d = d &+ temp1
      h = temp1 &+ rotate(a ^ rotate(a ^ rotate(a, 9), 11), 2) &+ (b ^ (ab & bc))
      bc = ab
    }

    @inline(__always) private func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
      value >> count | value << (32 - count)
    }
  }
}
