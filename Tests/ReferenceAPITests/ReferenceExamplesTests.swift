// A host's code, as the reference's Swift examples write it: this file imports `Emrtd` and the
// system's modules alone (the simulator behind the link is wired in ReferenceSimulatedChip.swift).
import Emrtd
import Foundation
import Synchronization
import Testing

/// A host's link, as the reference's example has one: raw bytes to a chip and its own failures,
/// which the transport turns into `TransportError`s.
final class MyLink: @unchecked Sendable {
    enum Failure: Error { case lost, timeout, broken }

    private let exchange: (Data) throws -> Data
    /// The failure the next exchange meets, if any.
    var failure: Failure?

    init(exchange: @escaping (Data) throws -> Data) { self.exchange = exchange }

    func send(_ apdu: Data) throws -> Data {
        if let failure { throw failure }
        return try exchange(apdu)
    }
}

/// The reference's custom transport, as its Swift example writes it (the failures mapped as its
/// Kotlin example maps them).
final class MyTransport: CardTransport, @unchecked Sendable {
    let link: MyLink
    init(link: MyLink) { self.link = link }
    func transceive(apdu: Data) throws -> Data {
        do {
            return try link.send(apdu)
        } catch MyLink.Failure.lost {
            throw TransportError.TagLost
        } catch MyLink.Failure.timeout {
            throw TransportError.Timeout
        }
    }
    func supportsExtendedLength() -> Bool { true }
}

/// The reference's `ReadListener`, with `Int32` percentages.
final class Progress: ReadListener {
    let events = Mutex<[String]>([])
    func onAccessEstablishmentStarted() { events.withLock { $0.append("access") } }
    func onElementaryFilesReadingProgressUpdated(id: ElementaryFileId, totalProgressPercentage: Int32) {
        let percentage: Int32 = totalProgressPercentage
        events.withLock { $0.append("\(id.rawValue) \(percentage)") }
    }
    func onDataAuthenticationStarted() { events.withLock { $0.append("authentication") } }
}

/// The reference's Swift examples, compiled as written and run against the simulator over a
/// custom `CardTransport`.
@Suite struct ReferenceExamplesTests {
    static let can = ReferenceSimulatedChip.can

    /// A link to a chip that offers PACE with the CAN, and the CSCA its data chains to.
    static func link() throws -> (MyLink, csca: Data) {
        let chip = try ReferenceSimulatedChip()
        return (MyLink(exchange: chip.exchange), chip.csca)
    }

    /// The EmrtdReader example: `.can(value:)`, `nil` challenge and listener.
    @Test func customTransportReadsWithTheCAN() throws {
        let (link, csca) = try Self.link()
        let reader = try EmrtdReader(
            config: ReaderConfig(useBuiltInAuthorityCertificates: false, authorityCertificates: [csca]))
        let doc = try reader.read(
            transport: MyTransport(link: link), accessKey: .can(value: "123456"),
            activeAuthenticationChallenge: nil, listener: nil)
        let dataGenuine = doc.authenticationStatus.data.status == .authenticated
        let chipGenuine = doc.authenticationStatus.chip.status == .authenticated
        let mrz = doc.machineReadableZoneInformation.fields
        #expect(dataGenuine && doc.accessControlProtocolUsed == .pace)
        #expect(chipGenuine == (doc.authenticationStatus.chip.protocol != nil))
        #expect(mrz.documentNumber == "L898902C")
        let outcome = readOutcome(document: doc, error: nil, durationMs: UInt64(1200))
        #expect(outcome.resultStatus == "success" && outcome.durationMs == 1200)
    }

    /// The scanner example's catch clauses over the reader (`scan` stands in for
    /// `EmrtdScanner.scan`, which throws untyped).
    @Test func catchAccessControlAsTheReferenceWritesIt() throws {
        let (link, _) = try Self.link()
        let reader = try EmrtdReader(config: ReaderConfig(useBuiltInAuthorityCertificates: false))
        func scan(accessKey: AccessKey) throws -> TravelDocument {
            try reader.read(
                transport: MyTransport(link: link), accessKey: accessKey, activeAuthenticationChallenge: nil,
                listener: nil)
        }
        var caught = ""
        do {
            _ = try scan(accessKey: .mrz(documentNumber: "L898902C3", dateOfBirth: "740812", dateOfExpiry: "120415"))
        } catch ReadError.AccessControl(let reason, _) {
            caught = "Check the MRZ data: \(reason)"
        } catch ReadError.Cancelled {
            caught = "cancelled"
        } catch let error as ReadError {
            caught = readErrorMessage(error: error)
        }
        #expect(caught.hasPrefix("Check the MRZ data: "), "\(caught)")
    }

    /// Each `TransportError` a transport throws fails the read as the reference's table says;
    /// anything else thrown is `Unexpected`, a `Read` of kind `unknown`.
    @Test func transportErrorsSurfaceAsTheReferenceSays() throws {
        let cases: [(MyLink.Failure, String)] = [
            (.lost, "not_connected"), (.timeout, "not_connected"), (.broken, "read"),
        ]
        for (failure, code) in cases {
            let (link, _) = try Self.link()
            link.failure = failure
            let reader = try EmrtdReader(config: ReaderConfig(useBuiltInAuthorityCertificates: false))
            do {
                _ = try reader.read(
                    transport: MyTransport(link: link), accessKey: .can(value: Self.can),
                    activeAuthenticationChallenge: nil, listener: nil)
                Issue.record("\(failure): read")
            } catch let error as ReadError {
                #expect(error.code == code, "\(failure): \(error)")
                if case .Read(let kind, _, _) = error { #expect(kind == .unknown) }
            }
        }
    }

    /// `cancel()` fails the read with `Cancelled`, whose JSON has a `null` reason.
    @Test func cancelledHasNoReason() throws {
        let (link, _) = try Self.link()
        let reader = try EmrtdReader(config: ReaderConfig(useBuiltInAuthorityCertificates: false))
        final class CancelOnProgress: ReadListener {
            let reader: EmrtdReader
            init(_ reader: EmrtdReader) { self.reader = reader }
            func onElementaryFilesReadingProgressUpdated(id: ElementaryFileId, totalProgressPercentage: Int32) {
                reader.cancel()
            }
        }
        do {
            _ = try reader.read(
                transport: MyTransport(link: link), accessKey: .can(value: Self.can),
                activeAuthenticationChallenge: nil, listener: CancelOnProgress(reader))
            Issue.record("read")
        } catch ReadError.Cancelled(let debugInfo) {
            #expect(debugInfo.filesRead?.com != nil)
            let json = try JSONSerialization.jsonObject(
                with: Data(readErrorToJson(error: .Cancelled(debugInfo: debugInfo)).utf8))
            let error = json as? [String: Any]
            #expect(error?["code"] as? String == "cancelled" && error?["reason"] is NSNull)
        } catch {
            Issue.record("\(error)")
        }
    }

    /// The listener's calls in the reference's order, percentages `Int32` ending at 100.
    @Test func listenerHearsTheRead() throws {
        let (link, _) = try Self.link()
        let progress = Progress()
        _ = try EmrtdReader(config: ReaderConfig(useBuiltInAuthorityCertificates: false)).read(
            transport: MyTransport(link: link), accessKey: .can(value: Self.can), activeAuthenticationChallenge: nil,
            listener: progress)
        let events = progress.events.withLock { $0 }
        #expect(events.first == "access" && events.last == "authentication")
        #expect(events.dropFirst().first?.hasPrefix("sod ") == true)
        #expect(events.dropLast().last?.hasSuffix(" 100") == true)
    }

    @Test func certificateInfosIsEmptyOnGarbage() {
        #expect(certificateInfos(pemOrDer: Data([0x30, 0x03, 0x02, 0x01])).isEmpty)
    }
}
