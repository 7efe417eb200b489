/// The limbs one operation works in, allocated once before its loop and wiped when released: numbered
/// temporaries of one field element each, then the field's scratch area.
final class Workspace {
    let limbCount: Int
    let temporaryCount: Int
    private let base: Limbs
    private let totalLimbs: Int

    init(limbCount: Int, temporaries: Int = 24) {
        self.limbCount = limbCount
        temporaryCount = temporaries
        // Field scratch: 3n, plus n for the regular inversion's base.
        totalLimbs = (temporaries + 4) * limbCount
        base = .allocate(capacity: totalLimbs)
        base.initialize(repeating: 0, count: totalLimbs)
    }

    deinit {
        base.update(repeating: 0, count: totalLimbs)
        base.deallocate()
    }

    @inline(__always)
    func temporary(_ index: Int) -> Limbs { base + index * limbCount }

    @inline(__always)
    var scratch: Limbs { base + temporaryCount * limbCount }
}

/// A zeroed limb buffer for tables and points, wiped when released.
final class LimbBuffer: @unchecked Sendable {
    let pointer: Limbs
    let count: Int

    init(count: Int) {
        self.count = count
        pointer = .allocate(capacity: max(count, 1))
        pointer.initialize(repeating: 0, count: max(count, 1))
    }

    deinit {
        pointer.update(repeating: 0, count: max(count, 1))
        pointer.deallocate()
    }
}
