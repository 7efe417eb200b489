import Emrtd
import Foundation
import Synchronization
import Testing

/// A host's transport that counts what the read sends and answers every command "not found".
final class CountingTransport: CardTransport, @unchecked Sendable {
    let sent = Mutex(0)
    func transceive(apdu: Data) throws -> Data {
        sent.withLock { $0 += 1 }
        return Data([0x6A, 0x82])
    }
    func supportsExtendedLength() -> Bool { true }
}

/// "Accepted input, validated before anything is sent to the chip (InvalidArgument otherwise)":
/// a malformed key fails the read with `ReadError.InvalidArgument` naming the field, never its
/// value, and the transport sees no APDU.
@Suite struct ReferenceKeyCheckTests {
    @Test(arguments: [
        (
            AccessKey.mrz(documentNumber: "L898-902C", dateOfBirth: "690806", dateOfExpiry: "940623"),
            "document number", "L898-902C"
        ),
        (
            AccessKey.mrz(documentNumber: "  ", dateOfBirth: "690806", dateOfExpiry: "940623"), "document number",
            "690806"
        ),
        (
            AccessKey.mrz(documentNumber: "L898902C", dateOfBirth: "6908", dateOfExpiry: "940623"), "date of birth",
            "6908"
        ),
        (
            AccessKey.mrz(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "94O623"), "date of expiry",
            "94O623"
        ),
        (AccessKey.can(value: "12345"), "CAN", "12345"),
        (AccessKey.can(value: "12345a"), "CAN", "12345a"),
    ])
    func aMalformedKeySendsNothing(key: AccessKey, field: String, value: String) throws {
        let reader = try EmrtdReader(config: ReaderConfig(useBuiltInAuthorityCertificates: false, renderImages: false))
        let transport = CountingTransport()
        do {
            _ = try reader.read(transport: transport, accessKey: key, activeAuthenticationChallenge: nil, listener: nil)
            Issue.record("the read did not fail")
        } catch ReadError.InvalidArgument(let reason) {
            #expect(reason.contains(field), "\(reason)")
            #expect(!reason.contains(value), "\(reason)")
        } catch {
            Issue.record("not InvalidArgument: \(error)")
        }
        #expect(transport.sent.withLock { $0 } == 0)
    }

    /// The same key well-formed reaches the chip: the count above is the check's, not the read's.
    @Test func aWellFormedKeyIsSent() throws {
        let reader = try EmrtdReader(config: ReaderConfig(useBuiltInAuthorityCertificates: false, renderImages: false))
        let transport = CountingTransport()
        #expect(throws: ReadError.self) {
            try reader.read(
                transport: transport, accessKey: .can(value: "123456"), activeAuthenticationChallenge: nil,
                listener: nil)
        }
        #expect(transport.sent.withLock { $0 } > 0)
    }
}
