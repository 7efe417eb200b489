import LDS

/// Which data groups a read takes and in what order, from what the chip says it holds (EF.COM's
/// tag list, EF.SOD's hashes). Pure, so the order is tested without a chip.
///
/// - DG1, DG2, DG14 and DG15 are always tried: a chip may hold more than its lists say.
/// - DG14 first: Chip Authentication, which DG14 describes, re-keys the channel, so every data
///   group after it travels under the keys only the genuine chip can share.
/// - DG3 and DG4 last: they need Extended Access Control, and a chip that ends secure messaging
///   on the refusal then costs nothing else.
/// - The rest by number.
public struct ReadPlan: Sendable, Hashable {
    /// In the order to read them.
    public let dataGroups: [LDSFileKind]

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
    public init(listed: [LDSFileKind]?, hashed: [Int]?) {
        var wanted = Self.alwaysTried.union((listed ?? []).filter { $0.dataGroupNumber != nil })
        for number in hashed ?? [] {
            if let kind = LDSFileKind.dataGroup(number) { wanted.insert(kind) }
        }
        let first = Self.chipAuthenticationFiles.filter(wanted.contains)
        let last = Self.extendedAccessFiles.filter(wanted.contains)
        let middle = wanted.subtracting(first).subtracting(last).sorted {
            ($0.dataGroupNumber ?? 0) < ($1.dataGroupNumber ?? 0)
        }
        dataGroups = first + middle + last
    }
}
