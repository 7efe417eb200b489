import LDS
import Testing

@testable import Emrtd

/// Progress without sizing reads: estimates until each file is read, never going back.
@Suite struct ReadProgressTests {
    @Test func climbsWithEachFileAndEndsAt100() {
        var progress = ReadProgress(done: 1_000, remaining: [.dg14, .dg1, .dg2, .dg11, .dg15])
        var seen = [progress.percentage]
        // DG14 absent, DG1 as estimated, DG2 far above its estimate, DG11 below, DG15 absent.
        for (kind, size) in [(LDSFileKind.dg14, 0), (.dg1, 93), (.dg2, 60_000), (.dg11, 50), (.dg15, 0)] {
            progress.finished(kind, size: size)
            seen.append(progress.percentage)
        }
        #expect(seen == seen.sorted())
        #expect(seen.first ?? 100 < 10)
        #expect(seen.last == 100)
        #expect(progress.done == 61_143)
    }

    @Test func theFaceCountsForMostBeforeItIsRead() {
        var progress = ReadProgress(done: 0, remaining: [.dg1, .dg2])
        progress.finished(.dg1, size: 93)
        #expect(progress.percentage < 5)
        progress.finished(.dg2, size: 15_000)
        #expect(progress.percentage == 100)
    }
}
