import Connector
import Foundation
import JSON
import Testing

/// A realistic face makes a result larger than the 70,000 bytes of any other message: relayed to
/// a tenant with `receiveResult`, it arrives whole (the `result` message's own limit,
/// `ValidationProtocol.maximumResultMessageSize`), and neither side's memory is corrupted on
/// the way (this suite runs under AddressSanitizer in `.ci/run`).
@Suite(.serialized) struct LargeResultTests {
    @Test func anEightyKilobyteFaceReachesAReceiveResultTenantWhole() throws {
        guard let fixture = try ServeFixture.make(faceSize: 80_000) else { return }
        defer { fixture.stop() }
        #expect(fixture.face.count > 80_000)
        guard let server = try fixture.serve(listen: "127.0.0.1:0") else { return }
        defer { server.stop() }
        let url = "ws://127.0.0.1:\(server.port ?? 0)\(ValidationProtocol.path)"

        let relay = try fixture.relay(url, validationId: "v-large", ["--files", "minimalKYC"])
        #expect(relay.status == 0, "\(relay.combinedOutput)")
        let outcome = try JSONValue.parse(relay.output)
        #expect(outcome["code"] == .integer(1000))
        let result = try #require(outcome["result"])
        #expect(result["validationId"] == .string("v-large"))
        // The whole DG2, byte for byte, in a result far over the 70,000 bytes of other messages.
        #expect(
            result["ldsMasterFile"]?["lds1EmrtdApplication"]?["dg2"]?["bytes"]
                == .string(Data(fixture.face).base64EncodedString()))
        #expect(result.serialized().utf8.count > ValidationProtocol.maximumMessageSize)
        #expect(server.isRunning)
    }
}
