import AccessControl
import Emrtd
import LDS
import MRZ
import Transport

/// A stand-in for the AccessControl package in these tests: it opens a chip that enforces no
/// access control (the simulator with `enforcesAccessControl: false`) by selecting the eMRTD
/// application in plain, and reads files with plain SELECT and extended READ BINARY. It tests
/// the read's orchestration (order, progress, verdicts, errors), not access control.
struct PlainChipAccess: ChipAccessProcedure {
    func open(
        _ transport: any APDUTransport, accessKey: AccessPassword, observer: (any PlainAPDUObserver)?,
        log: @escaping @Sendable (String) -> Void
    ) throws(ReadError) -> OpenedChip {
        let select = CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: [0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01])
        let answer = try PlainFileReader.exchange(transport, select)
        guard answer.statusWord == .success else { throw ReadError(.accessControl, "no eMRTD application") }
        log("plain access (test stand-in)")
        return OpenedChip(files: PlainFileReader(transport: transport), access: .bac)
    }
}

struct PlainFileReader: ElementaryFileReader {
    let transport: any APDUTransport

    static func exchange(_ transport: any APDUTransport, _ command: CommandAPDU) throws(ReadError) -> ResponseAPDU {
        do {
            return try transport.transmit(command)
        } catch {
            throw ReadError(transport: error, during: "test exchange")
        }
    }

    private func select(_ kind: LDSFileKind) throws(ReadError) -> FileReadResult<Bool> {
        let id = kind.fileIdentifier
        let answer = try Self.exchange(
            transport, CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [UInt8(id >> 8), UInt8(id & 0xFF)]))
        switch answer.statusWord {
        case .success: return .success(true)
        case .fileNotFound: return .notFound
        default: return .failed("SELECT \(answer.statusWord)")
        }
    }

    private func readBinary(offset: Int, length: Int) throws(ReadError) -> FileReadResult<[UInt8]> {
        let answer = try Self.exchange(
            transport, CommandAPDU(ins: 0xB0, p1: UInt8(offset >> 8), p2: UInt8(offset & 0xFF), expectedLength: length))
        switch answer.statusWord {
        case .success, .endOfFileReached: return .success(answer.data)
        case .securityStatusNotSatisfied: return .denied
        case .secureMessagingDataObjectsIncorrect: return .sessionEnded("6988")
        default: return .failed("READ BINARY \(answer.statusWord)")
        }
    }

    func length(of kind: LDSFileKind) throws(ReadError) -> FileReadResult<Int> {
        if case .notFound = try select(kind) { return .notFound }
        switch try readBinary(offset: 0, length: 4) {
        case .success(let header):
            guard header.count >= 2 else { return .failed("short header") }
            if header[1] < 0x80 { return .success(2 + Int(header[1])) }
            let count = Int(header[1] & 0x7F)
            guard header.count >= 2 + count else { return .failed("short header") }
            return .success(2 + count + header[2..<(2 + count)].reduce(0) { $0 << 8 | Int($1) })
        case .notFound: return .notFound
        case .denied: return .denied
        case .sessionEnded(let reason): return .sessionEnded(reason)
        case .failed(let reason): return .failed(reason)
        }
    }

    func read(_ kind: LDSFileKind) throws(ReadError) -> FileReadResult<[UInt8]> {
        let total: Int
        switch try length(of: kind) {
        case .success(let length): total = length
        case .notFound: return .notFound
        case .denied: return .denied
        case .sessionEnded(let reason): return .sessionEnded(reason)
        case .failed(let reason): return .failed(reason)
        }
        var bytes: [UInt8] = []
        while bytes.count < total {
            switch try readBinary(offset: bytes.count, length: min(total - bytes.count, 4096)) {
            case .success(let chunk) where !chunk.isEmpty: bytes += chunk
            case .success: return .failed("empty answer")
            case .notFound: return .notFound
            case .denied: return .denied
            case .sessionEnded(let reason): return .sessionEnded(reason)
            case .failed(let reason): return .failed(reason)
            }
        }
        return .success(bytes)
    }
}
