import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore
@testable import JetsimIO

@Suite struct SHA256Tests {
  /// The test vectors of FIPS 180-4 and NIST's examples.
  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
  ])
  func knownDigests(text: String, digest: String) {
    #expect(SHA256.hex(Array(text.utf8)) == digest)
  }

  /// The constants computed from the primes are FIPS 180-4's: the first and last round constants,
  /// the first and last words of the initial hash (the digests above check all of them).
  @Test func constantsFromRoots() {
    #expect(SHA256.rootBits(2, 3) == 0x428a_2f98)
    #expect(SHA256.rootBits(311, 3) == 0xc671_78f2)
    #expect(SHA256.rootBits(2, 2) == 0x6a09_e667)
    #expect(SHA256.rootBits(19, 2) == 0x5be0_cd19)
  }

  @Test func aMillionAs() {
    #expect(
      SHA256.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  /// The hashing thread gives the digest of the bytes handed to it in order, whatever their
  /// pieces (more pieces than it holds at once, empty ones, pieces across block boundaries); a
  /// hasher ended without its digest lets its thread go.
  @Test func theHashingThreadGivesTheSameDigest() throws {
    var random = RandomStream(seed: 3, stream: 1)
    for round in 0..<20 {
      let bytes = (0..<random.below(300_000)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      let hasher = try BackgroundSHA256()
      var offset = 0
      while offset < bytes.count {
        let size = min(bytes.count - offset, random.below(3) == 0 ? 0 : random.below(5000))
        bytes[offset..<(offset + size)].withUnsafeBytes { hasher.update($0) }
        offset += size
      }
      #expect(hasher.hex() == SHA256.hex(bytes), "round \(round)")
      #expect(hasher.hex() == SHA256.hex(bytes), "asked twice")
    }
    let abandoned = try BackgroundSHA256()
    abandoned.update(UnsafeRawBufferPointer(start: nil, count: 0))
    abandoned.end()
  }
}
