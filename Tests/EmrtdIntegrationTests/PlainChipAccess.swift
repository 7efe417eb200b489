import AccessControl
import Emrtd
import MRZ
import Transport

/// A stand-in for access control in these tests: it opens a chip that enforces none (the
/// simulator with `enforcesAccessControl: false`) by selecting the eMRTD application in plain, and
/// reads files with `AccessControl`'s `FileReader` over a plain channel. It tests the read's
/// orchestration (order, progress, verdicts, errors), not access control.
struct PlainChipAccess: ChipAccessProcedure {
    func open(
        _ transport: any APDUTransport, accessKey: AccessPassword, observer: (any PlainAPDUObserver)?,
        log: @escaping @Sendable (String) -> Void
    ) throws(ReadError) -> OpenedChip {
        let select = CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: [0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01])
        let answer: ResponseAPDU
        do throws(TransportError) {
            answer = try transport.transmit(select)
        } catch {
            throw ReadError(transport: error, during: "selecting the eMRTD application")
        }
        guard answer.statusWord == .success else { throw ReadError(.accessControl, "no eMRTD application") }
        log("plain access (test stand-in)")
        return OpenedChip(unprotected: transport, access: .bac)
    }
}
