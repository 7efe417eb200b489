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

    @Test func selectionsNarrowTheDataGroups() {
        #expect(FilesToRead.minimal.dataGroups == [.dg1, .dg2, .dg14, .dg15])
        #expect(FilesToRead.minimalKYC.dataGroups?.contains(.dg2) == true)
        #expect(FilesToRead.standard.dataGroups?.contains(.dg3) == false)
        #expect(FilesToRead.standard.dataGroups?.contains(.dg11) == true)
        #expect(FilesToRead.all.dataGroups == nil)
    }
}
