import Foundation

/// The reference's transport, implemented by the host: one raw command APDU in, the raw
/// response with SW1 SW2 appended out. Status words such as 6982 are answers, not errors; a
/// failing link throws `TransportError` (`TagLost`, `Timeout`, `Cancelled`, `Io`), and anything
/// else thrown counts as `TransportError.Unexpected`.
///
/// The reader sends through the typed `APDUTransport`; `CardTransportLink` puts one of these
/// behind it.
public protocol CardTransport: AnyObject, Sendable {
    /// Sends one command APDU; returns the response data plus SW1 SW2.
    func transceive(apdu: Data) throws -> Data
    /// Whether the link carries extended-length APDUs.
    func supportsExtendedLength() -> Bool
}

/// A host's `CardTransport` as an `APDUTransport`: commands encoded, answers split, errors
/// mapped as the reference maps them.
public final class CardTransportLink: APDUTransport {
    public let base: any CardTransport

    public init(_ base: any CardTransport) { self.base = base }

    public var supportsExtendedLength: Bool { base.supportsExtendedLength() }

    public func transmit(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU {
        let bytes = try command.encoded()
        let answer: Data
        do {
            answer = try base.transceive(apdu: Data(bytes))
        } catch let error as TransportError {
            throw error
        } catch {
            throw .Unexpected(detail: "the transport threw \(error)")
        }
        return try ResponseAPDU(encoded: [UInt8](answer))
    }
}
