import Foundation
import JetsimTestSupport
import Testing

@testable import JetsimCore

@Suite struct PortableMathTests {
  @Test func logAndExpAgreeWithTheSystemToAFewUlps() {
    var random = RandomStream(seed: 4, stream: 8)
    for _ in 0..<5_000 {
      let x = PortableMath.exp(random.unit() * 80 - 40)
      let log = PortableMath.log(x)
      #expect(abs(log - Foundation.log(x)) <= 4 * Foundation.log(x).magnitude.ulp + 1e-15)
      let y = random.unit() * 100 - 50
      #expect(abs(PortableMath.exp(y) - Foundation.exp(y)) <= 4 * Foundation.exp(y).ulp)
    }
    #expect(PortableMath.log(1) == 0)
    #expect(PortableMath.exp(0) == 1)
    #expect(abs(PortableMath.pow(10, 3) - 1000) < 1e-9)
    #expect(PortableMath.log(0) == -.infinity && PortableMath.log(-1).isNaN)
  }
}
