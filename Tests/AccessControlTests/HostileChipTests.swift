import LDS
import SecureMessaging
import Synchronization
import Testing
import Transport

@testable import AccessControl

/// A chip answering READ BINARY with seeded random status words and data.
final class HostileChip: APDUTransport {
    private struct State {
        var generator: SplitMix
        var exchanges = 0
    }

    private let state: Mutex<State>
    let supportsExtendedLength: Bool

    init(seed: UInt64, extended: Bool) {
        state = Mutex(State(generator: SplitMix(seed: seed)))
        supportsExtendedLength = extended
    }

    var exchanges: Int { state.withLock { $0.exchanges } }

    func transmit(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU {
        state.withLock { state in
            state.exchanges += 1
            // SELECT succeeds, so that the reads meet the hostility.
            if command.ins == 0xA4 { return ResponseAPDU(statusWord: .success) }
            let data = (0..<Int(state.generator.next() % 300)).map { _ in
                UInt8(truncatingIfNeeded: state.generator.next())
            }
            let words: [UInt16] = [
                0x9000, 0x9000, 0x9000, 0x6282, 0x6B00, 0x6700, 0x6C00 | UInt16(state.generator.next() % 256), 0x6982,
                0x9000, 0x9000, 0x6282, UInt16(truncatingIfNeeded: state.generator.next()),
            ]
            let word = words[Int(state.generator.next() % UInt64(words.count))]
            let withData = state.generator.next() % 3 != 0
            return ResponseAPDU(data: withData ? data : [], statusWord: StatusWord(word))
        }
    }
}

/// A small deterministic generator, so a failing seed can be replayed.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct HostileChipTests {
    /// Whatever the chip answers, a read ends (with bytes within the cap, or a typed error) and
    /// never crashes; and the bytes returned always start with the header they declare.
    @Test(arguments: 0..<300)
    func randomAnswersEndInBytesOrATypedError(seed: Int) {
        let chip = HostileChip(seed: UInt64(seed), extended: seed % 2 == 0)
        var reader = FileReader(channel: PlainChannel(chip))
        let file = LDSFileKind.allCases[seed % LDSFileKind.allCases.count]
        switch reader.read(file) {
        case .read(let bytes):
            #expect(bytes.count <= file.maximumSize)
            guard case .header(let header) = TLVHeader.parse(bytes) else {
                Issue.record("seed \(seed): \(bytes.count) bytes returned that do not start with a TLV header")
                return
            }
            if let length = header.valueLength { #expect(bytes.count == header.headerLength + length) }
        case .failed(let error):
            #expect(error.file == file)
            #expect(error.bytesRead.count <= file.maximumSize)
        case .absent, .denied:
            break
        }
        #expect(chip.exchanges < 200_000)
    }
}
