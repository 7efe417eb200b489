import JSON
import Testing

@testable import Connector

/// The hello's session token and the identifiers that travel as HTTP headers.
@Suite struct HelloTokenTests {
    @Test func tokenRoundTripsAndIsOptional() throws {
        let hello = ValidationHello(validationId: "scan-1", clientId: "acme", token: "v1.1900000000.abc")
        guard case .hello(let parsed) = try ClientMessage.parse(ClientMessage.hello(hello).text) else {
            Issue.record("not a hello")
            return
        }
        #expect(parsed == hello)
        let open = ValidationHello(validationId: "scan-2", clientId: "demo")
        #expect(try JSONValue.parse(ClientMessage.hello(open).text)["token"] == .null)
        guard case .hello(let parsedOpen) = try ClientMessage.parse(ClientMessage.hello(open).text) else {
            Issue.record("not a hello")
            return
        }
        #expect(parsedOpen.token == nil)
    }

    @Test func refusedHellos() {
        let start = #"{"type":"hello","version":1,"clientId":"acme","#
        let cases = [
            start + #""validationId":"a","token":42}"#,
            start + #""validationId":"a","token":"\#(String(repeating: "x", count: 513))"}"#,
            // A validationId is the Idempotency-Key header: visible ASCII only.
            start + #""validationId":"a b"}"#, start + #""validationId":"caf\u00e9"}"#,
            start + #""validationId":"a","headers":{"Idempotency-Key":"b"}}"#,
        ]
        for text in cases {
            #expect(throws: ConnectorError.self, "\(text)") { try ClientMessage.parse(text) }
        }
        #expect(CloseCode.storedPendingDelivery.rawValue == 4008)
    }
}
