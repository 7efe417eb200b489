/// The files of the eMRTD application (LDS1), as the reference model has them: the mandatory
/// four always, every other data group nil when the chip does not have it (DG6 is reserved by
/// ICAO). `LdsMasterFile.lds1EmrtdApplication` gives it; the JSON is `LdsMasterFile`'s.
public struct Lds1EmrtdApplication: Sendable, Hashable {
    public var com: ElementaryFile
    public var sod: ElementaryFile
    public var dg1: ElementaryFile
    public var dg2: ElementaryFile
    public var dg3: ElementaryFile?
    public var dg4: ElementaryFile?
    public var dg5: ElementaryFile?
    public var dg7: ElementaryFile?
    public var dg8: ElementaryFile?
    public var dg9: ElementaryFile?
    public var dg10: ElementaryFile?
    public var dg11: ElementaryFile?
    public var dg12: ElementaryFile?
    public var dg13: ElementaryFile?
    public var dg14: ElementaryFile?
    public var dg15: ElementaryFile?
    public var dg16: ElementaryFile?
}
