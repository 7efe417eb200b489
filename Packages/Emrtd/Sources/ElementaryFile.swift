import Foundation

/// One file of the eMRTD application as the reference model has it: which file, and its bytes
/// exactly as read (outer tag and length included); `bytes` is nil when the chip denied access
/// (6982).
public struct ElementaryFile: Sendable, Hashable {
    public var id: ElementaryFileId
    public var bytes: Data?

    public init(id: ElementaryFileId, bytes: Data?) {
        self.id = id
        self.bytes = bytes
    }
}
