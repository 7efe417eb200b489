import LDS
import Testing

@testable import Emrtd

@Suite struct ReadPlanTests {
    @Test func dataGroup14ComesFirstAndTheExtendedAccessGroupsLast() {
        let plan = ReadPlan(listed: [.dg1, .dg2, .dg3, .dg4, .dg11, .dg14, .dg15], hashed: [1, 2, 3, 4, 11, 14, 15])
        #expect(plan.dataGroups == [.dg14, .dg1, .dg2, .dg11, .dg15, .dg3, .dg4])
        #expect(plan.mayBeRefused == [.dg3, .dg4])
    }

    @Test func dataGroups1_2_14And15AreTriedEvenWhenNothingListsThem() {
        #expect(ReadPlan(listed: nil, hashed: nil).dataGroups == [.dg14, .dg1, .dg2, .dg15])
        #expect(ReadPlan(listed: nil, hashed: nil).mayBeRefused.isEmpty)
        // Named by neither list: after every listed file (a chip may end secure messaging on
        // their 6A82), DG14 without making Chip Authentication wait for it.
        let unlisted = ReadPlan(listed: [], hashed: [])
        #expect(unlisted.dataGroups == [.dg1, .dg2, .dg14, .dg15])
        #expect(unlisted.mayBeRefused == [.dg14, .dg15])
        #expect(ReadPlan(listed: [.dg15], hashed: nil).dataGroups == [.dg1, .dg2, .dg15, .dg14])
    }

    @Test func theUnionOfWhatEFCOMListsAndEFSODHashesIsRead() {
        // EF.COM forgets DG12, EF.SOD forgets DG11; DG4 only in EF.COM goes last.
        let plan = ReadPlan(listed: [.dg1, .dg2, .dg11, .dg4], hashed: [1, 2, 12, 16])
        #expect(plan.dataGroups == [.dg1, .dg2, .dg11, .dg12, .dg16, .dg14, .dg15, .dg4])
    }

    @Test func whatIsNoDataGroupIsLeftOut() {
        // A tag list naming EF.SOD or EF.COM, and hashes of numbers no data group has.
        let plan = ReadPlan(listed: [.sod, .com, .dg5], hashed: [0, 17, 99, -1, 7])
        #expect(plan.dataGroups == [.dg1, .dg2, .dg5, .dg7, .dg14, .dg15])
        #expect(Set(plan.dataGroups).count == plan.dataGroups.count)
    }

    @Test func aSelectionNarrowsThePlanButNeverDropsDG1OrDG2() {
        let listed: [LDSFileKind] = [.dg1, .dg2, .dg3, .dg11, .dg14, .dg15]
        let minimal = ReadPlan(listed: listed, hashed: [1, 2, 3, 11, 14, 15], selected: [.dg14, .dg15])
        #expect(minimal.dataGroups == [.dg14, .dg1, .dg2, .dg15])
        #expect(minimal.mayBeRefused.isEmpty)
        // Nothing selected: the two groups a document cannot do without.
        #expect(ReadPlan(listed: listed, hashed: nil, selected: []).dataGroups == [.dg1, .dg2])
        // An unselected unlisted group is not tried either.
        #expect(ReadPlan(listed: [.dg1, .dg2], hashed: [1, 2], selected: [.dg15]).dataGroups == [.dg1, .dg2, .dg15])
        #expect(ReadPlan(listed: listed, hashed: nil, selected: nil) == ReadPlan(listed: listed, hashed: nil))
    }
}
