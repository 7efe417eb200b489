import LDS

/// Which data groups a read takes and in what order, from what the chip says it holds (EF.COM's
/// tag list, EF.SOD's hashes). Pure, so the order is tested without a chip.
///
/// - DG1, DG2, DG14 and DG15 are always tried: a chip may hold more than its lists say.
/// - DG14 first: Chip Authentication, which DG14 describes, re-keys the channel, so every data
///   group after it travels under the keys only the genuine chip can share.
/// - DG3 and DG4 last: they need Extended Access Control, and a chip that ends secure messaging
///   on the refusal then costs nothing else.
/// - DG14 and DG15 when neither EF.COM nor EF.SOD names them (`unlisted`), just before DG3 and
///   DG4: a chip without them answers 6A82, after which some chips end secure messaging, so they
///   come after every listed file (and after Active Authentication, which the read runs before
///   `unlisted` and DG3/DG4). An unlisted DG14's key proves nothing, so nothing waits for it.
/// - The rest by number.
/// - With a selection (`emrtd serve`'s), only the selected data groups, DG1 and DG2 always.
public struct ReadPlan: Sendable, Hashable {
    /// In the order to read them.
    public let dataGroups: [LDSFileKind]
    /// The always-tried data groups neither list names, and DG3 and DG4: the files a chip may
    /// answer with an error (which ends secure messaging on some chips), read last.
    public let mayBeRefused: Set<LDSFileKind>

    /// Read whether or not EF.COM and EF.SOD list them.
    public static let alwaysTried: Set<LDSFileKind> = [.dg1, .dg2, .dg14, .dg15]
    /// What Chip Authentication needs before the other data groups are read.
    public static let chipAuthenticationFiles: [LDSFileKind] = [.dg14]
    /// Protected by Extended Access Control: tried last, a refusal is recorded as denied.
    public static let extendedAccessFiles: [LDSFileKind] = [.dg3, .dg4]
    /// Without DG1 there is no document; without DG2 the data is not authenticated.
    public static let mandatoryDataGroups: [LDSFileKind] = [.dg1, .dg2]

    /// - Parameters:
    ///   - listed: the data groups EF.COM lists (nil without a usable EF.COM).
    ///   - hashed: the data group numbers EF.SOD hashes (nil without a usable EF.SOD).
    ///   - selected: the data groups the caller wants, nil for every one; the mandatory DG1 and
    ///     DG2 are read whatever it says (a document cannot be made without them).
    public init(listed: [LDSFileKind]?, hashed: [Int]?, selected: Set<LDSFileKind>? = nil) {
        var wanted = Self.alwaysTried.union((listed ?? []).filter { $0.dataGroupNumber != nil })
        for number in hashed ?? [] {
            if let kind = LDSFileKind.dataGroup(number) { wanted.insert(kind) }
        }
        if let selected { wanted.formIntersection(selected.union(Self.mandatoryDataGroups)) }
        let byNumber = { (a: LDSFileKind, b: LDSFileKind) in (a.dataGroupNumber ?? 0) < (b.dataGroupNumber ?? 0) }
        var unlisted: Set<LDSFileKind> = []
        if listed != nil || hashed != nil {
            let named = Set((listed ?? []) + (hashed ?? []).compactMap(LDSFileKind.dataGroup))
            unlisted = Self.alwaysTried.subtracting(named).subtracting(Self.mandatoryDataGroups)
                .intersection(wanted)
        }
        let first = Self.chipAuthenticationFiles.filter { wanted.contains($0) && !unlisted.contains($0) }
        let last = Self.extendedAccessFiles.filter(wanted.contains)
        let middle = wanted.subtracting(first).subtracting(last).subtracting(unlisted).sorted(by: byNumber)
        dataGroups = first + middle + unlisted.sorted(by: byNumber) + last
        mayBeRefused = unlisted.union(last)
    }
}
