import JSON
import MRZ
import Testing

@testable import Connector

@Suite struct ProtocolTests {
    @Test func helloAndAccessRoundTripWithoutLosingTheKey() throws {
        let hello = ValidationHello(
            validationId: "scan-1", clientId: "acme", headers: ["X-Trace": "abc"], supportsExtendedLength: true)
        guard case .hello(let parsed) = try ClientMessage.parse(ClientMessage.hello(hello).text) else {
            Issue.record("not a hello")
            return
        }
        #expect(parsed == hello)
        let key = try AccessPassword.mrz(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")
        guard case .access(let sent, let files) = try ClientMessage.parse(ClientMessage.access(key, .minimalKYC).text)
        else {
            Issue.record("not an access")
            return
        }
        #expect(sent == key)
        #expect(files == .minimalKYC)
        let can = try AccessPassword.can(value: "123456")
        guard case .access(let sentCAN, _) = try ClientMessage.parse(ClientMessage.access(can, .all).text) else {
            Issue.record("not an access")
            return
        }
        #expect(sentCAN == can)
    }

    @Test func malformedMessagesAreRefusedWithoutEchoingThePassword() {
        let cases = [
            "", "[]", "{\"type\":\"hello\"}",
            "{\"type\":\"hello\",\"version\":2,\"validationId\":\"a\",\"clientId\":\"b\"}",
            "{\"type\":\"hello\",\"version\":1,\"validationId\":\"\",\"clientId\":\"b\"}",
            "{\"type\":\"hello\",\"version\":1,\"validationId\":\"a\",\"clientId\":\"b\",\"headers\":{\"Host\":\"x\"}}",
            "{\"type\":\"hello\",\"version\":1,\"validationId\":\"a\",\"clientId\":\"b\",\"headers\":{\"X\":\"a\\nb\"}}",
            "{\"type\":\"access\",\"accessKey\":{\"kind\":\"can\",\"password\":\"12345\"},\"filesToRead\":\"all\"}",
            // A wrong check digit (the last 6 should be 4).
            "{\"type\":\"access\",\"accessKey\":{\"kind\":\"mrz\",\"password\":\"L898902C<369080619406236\"},\"filesToRead\":\"none\"}",
            "{\"type\":\"access\",\"accessKey\":{\"kind\":\"mrz\",\"password\":\"L898902C<369080619406235\"},\"filesToRead\":\"all\"}",
            "{\"type\":\"dance\"}",
        ]
        for text in cases {
            #expect(throws: ConnectorError.self) { try ClientMessage.parse(text) }
            do {
                _ = try ClientMessage.parse(text)
            } catch {
                #expect(!error.reason.contains("L898902C"))
                #expect(error.code == .malformedMessage)
            }
        }
    }
}
