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

  /// Messages whose padding falls on either side of a block's edge: 55 bytes leave room for the
  /// length in their block, 56 do not, 64 fill it (digests from `sha256sum`).
  @Test(arguments: [
    (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
    (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
    (57, "f13b2d724659eb3bf47f2dd6af1accc87b81f09f59f2b75e5c0bed6589dfe8c6"),
    (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
    (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
    (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
    (119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
    (120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"),
    (128, "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e"),
  ])
  func blockEdges(length: Int, digest: String) {
    let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
    #expect(SHA256.hex(bytes) == digest)
    // The same bytes added in pieces of every size from 1 to 65.
    for size in 1...65 {
      var hasher = SHA256.Hasher()
      for start in stride(from: 0, to: length, by: size) {
        hasher.update(bytes[start..<min(start + size, length)])
      }
      #expect(hasher.hex() == digest, "pieces of \(size)")
    }
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
