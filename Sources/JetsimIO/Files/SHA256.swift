import JetsimCore

/// SHA-256 (FIPS 180-4), for the digests of a run's inputs in `run.json`.
package enum SHA256 {
  fileprivate static let k: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
    0xab1c_5ed5,
    0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7,
    0xc19b_f174,
    0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc,
    0x76f9_88da,
    0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351,
    0x1429_2967,
    0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e,
    0x9272_2c85,
    0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585,
    0x106a_a070,
    0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f,
    0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
    0xc671_78f2,
  ]

  /// The digest of `bytes` as 64 lowercase hexadecimal digits.
  package static func hex(_ bytes: some Collection<UInt8>) -> String {
    var hasher = Hasher()
    hasher.update(Array(bytes))
    return hasher.hex()
  }

  /// A digest computed piece by piece, for a file read in chunks.
  package struct Hasher: Sendable {
    private var h: [UInt32] = [
      0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab,
      0x5be0_cd19,
    ]
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
      withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
        for i in 0..<16 {
          w[i] = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))
        }
        for i in 16..<64 {
          let s0 = rotate(w[i - 15], 7) ^ rotate(w[i - 15], 18) ^ (w[i - 15] >> 3)
          let s1 = rotate(w[i - 2], 17) ^ rotate(w[i - 2], 19) ^ (w[i - 2] >> 10)
          w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        SHA256.k.withUnsafeBufferPointer { k in
          // Eight rounds at a time, the working variables taking each other's places by name
          // instead of being moved along each round.
          for i in stride(from: 0, to: 64, by: 8) {
            round(a, b, c, &d, e, f, g, &hh, k[i] &+ w[i])
            round(hh, a, b, &c, d, e, f, &g, k[i + 1] &+ w[i + 1])
            round(g, hh, a, &b, c, d, e, &f, k[i + 2] &+ w[i + 2])
            round(f, g, hh, &a, b, c, d, &e, k[i + 3] &+ w[i + 3])
            round(e, f, g, &hh, a, b, c, &d, k[i + 4] &+ w[i + 4])
            round(d, e, f, &g, hh, a, b, &c, k[i + 5] &+ w[i + 5])
            round(c, d, e, &f, g, hh, a, &b, k[i + 6] &+ w[i + 6])
            round(b, c, d, &e, f, g, hh, &a, k[i + 7] &+ w[i + 7])
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
    /// `e`); FIPS 180-4 §6.2.2, step 3, with Ch and Maj in their usual shorter forms.
    @inline(__always) private func round(
      _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32,
      _ g: UInt32, _ h: inout UInt32, _ constantAndWord: UInt32
    ) {
      let temp1 =
        h &+ (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) &+ (g ^ (e & (f ^ g)))
        &+ constantAndWord
      d = d &+ temp1
      h = temp1 &+ (rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) &+ ((a & b) | (c & (a | b)))
    }

    @inline(__always) private func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
      value >> count | value << (32 - count)
    }
  }
}
