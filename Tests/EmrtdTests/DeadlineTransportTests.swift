import Glibc
import Synchronization
import Testing
import Transport

@testable import Emrtd

/// `ReaderConfig.timeoutMs` applies to every exchange, whatever the transport does.
@Suite struct DeadlineTransportTests {
    /// Answers at once, or never (until released) once `stall` is set.
    final class StallingTransport: APDUTransport {
        let stall = Atomic<Bool>(false)
        let release = DispatchGate()
        var supportsExtendedLength: Bool { false }

        func transmit(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU {
            if stall.load(ordering: .sequentiallyConsistent) { release.wait() }
            return ResponseAPDU(data: [command.ins], statusWord: .success)
        }
    }

    // The deadline of the answers that pass is far above any scheduling delay of a loaded machine;
    // only the stalled answer meets the short one.
    @Test func answersInTimePassThrough() throws {
        let transport = DeadlineTransport(StallingTransport(), timeout: .seconds(30))
        #expect(try transport.transmit(CommandAPDU(ins: 0xB0, p1: 0, p2: 0)).data == [0xB0])
        #expect(try transport.transmit(CommandAPDU(ins: 0xA4, p1: 0, p2: 0)).data == [0xA4])
    }

    @Test func aLateAnswerIsATimeoutThatEndsTheLink() throws {
        let base = StallingTransport()
        base.stall.store(true, ordering: .sequentiallyConsistent)
        let transport = DeadlineTransport(base, timeout: .milliseconds(50))
        #expect(throws: TransportError.Timeout) { try transport.transmit(CommandAPDU(ins: 0xB0, p1: 0, p2: 0)) }
        // The chip may still be working on it: nothing more goes to this link.
        base.stall.store(false, ordering: .sequentiallyConsistent)
        base.release.open()
        #expect(throws: TransportError.Timeout) { try transport.transmit(CommandAPDU(ins: 0xA4, p1: 0, p2: 0)) }
    }

    @Test func transportErrorsPassThroughUnchanged() {
        let transport = DeadlineTransport(ScriptedTransport([.failure("00B0000000", .TagLost)]), timeout: .seconds(30))
        #expect(throws: TransportError.TagLost) {
            try transport.transmit(CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 256))
        }
    }
}

/// A gate threads wait at until it is opened.
final class DispatchGate: Sendable {
    private let isOpen = Mutex(false)

    func wait() {
        while !isOpen.withLock({ $0 }) { usleep(1000) }
    }

    func open() { isOpen.withLock { $0 = true } }
}
