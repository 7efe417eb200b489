import Connector
import Testing

@testable import Validation

@Suite struct ConfigurationTests {
    @Test func tenantsFileNeedsHTTPResultURLs() throws {
        let tenants = try Tenants(
            json:
                #"{"tenants": {"acme": {"resultURL": "http://127.0.0.1:9/r", "receiveResult": true, "open": true}, "b": {"resultURL": "https://b.example/x", "open": true}}}"#
        )
        #expect(tenants.byClientId["acme"]?.receiveResult == true)
        #expect(tenants.byClientId["b"]?.receiveResult == false)
        #expect(throws: ValidationError.self) {
            try Tenants(json: #"{"tenants": {"a": {"resultURL": "file:///etc/passwd"}}}"#)
        }
        #expect(throws: ValidationError.self) { try Tenants(json: #"{"a": 1}"#) }
    }

    /// What a tenants file must not do silently: a clientId given twice (last-wins opened a
    /// secret tenant), a key given twice, a misspelled key, a control character in a clientId
    /// (C0, DEL or C1), no tenant at all, anything beside "tenants".
    @Test func tenantsFileRefusesAmbiguity() throws {
        let secret = "q83vEjRWeJq7zN7/ASNFZ4mrze8BI0VniavN7wEjRWc="
        let refused: [(String, String)] = [
            (
                #"{"tenants": {"acme": {"resultURL": "https://a.example/r", "secret": "\#(secret)"}, "acme": {"resultURL": "https://a.example/r", "open": true}}}"#,
                "\"acme\" is given twice"
            ),
            (#"{"tenants": {"a": {"resultURL": "https://a.example/r", "open": true, "open": false}}}"#, "given twice"),
            (
                #"{"tenants": {"a": {"resultURL": "https://a.example/r", "open": true, "recieveResult": true}}}"#,
                "recieveResult"
            ),
            (#"{"tenants": {"a\u0007": {"resultURL": "https://a.example/r", "open": true}}}"#, "control"),
            (#"{"tenants": {"a\u007f": {"resultURL": "https://a.example/r", "open": true}}}"#, "control"),
            (#"{"tenants": {"a\u0085": {"resultURL": "https://a.example/r", "open": true}}}"#, "control"),
            (#"{"tenants": {}}"#, "no tenant"),
            (#"{"tenants": {"a": {"resultURL": "https://a.example/r", "open": true}}, "tenant": {}}"#, "must be"),
            (#"{"tenants": {"a": {"resultURL": "ftp://a.example/r", "open": true}}}"#, "http(s)"),
        ]
        for (text, reason) in refused {
            do {
                _ = try Tenants(json: text)
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.reason.contains(reason), "\(text): \(error.reason)")
            }
        }
    }

    @Test func selectionsNarrowTheDataGroups() {
        #expect(FilesToRead.minimal.dataGroups == [.dg1, .dg2, .dg14, .dg15])
        #expect(FilesToRead.minimalKYC.dataGroups?.contains(.dg2) == true)
        #expect(FilesToRead.standard.dataGroups?.contains(.dg3) == false)
        #expect(FilesToRead.standard.dataGroups?.contains(.dg11) == true)
        #expect(FilesToRead.all.dataGroups == nil)
    }
}
