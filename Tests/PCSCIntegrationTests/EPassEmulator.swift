import Foundation
import Glibc
import PCSC
import TestSupport
import Testing

extension EPassEmulator {
    /// Stops the emulator but not pcscd (a card leaving the reader), by the PID start-vicc-epass.sh
    /// recorded, and waits until pcscd sees the card gone.
    static func stopEmulatorOnly(context: PCSCContext) throws {
        let state = stateDirectory
        let records = try String(contentsOfFile: state + "/pids", encoding: .utf8)
        let line = records.split(separator: "\n").first { $0.hasPrefix("vicc-epass ") }
        guard let pid = line?.split(separator: " ").dropFirst().first.flatMap({ pid_t($0) }) else {
            Issue.record("no vicc-epass PID recorded in \(state)/pids")
            return
        }
        // vicc does not end promptly on SIGTERM (stop.sh also ends up using SIGKILL).
        kill(pid, SIGKILL)
        for _ in 0..<300 {
            let present = try context.readers().contains { $0.name == readerName && $0.isCardPresent }
            if !present { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        Issue.record("pcscd still reports a card 30 s after the emulator ended")
    }
}
