/// Why a file could not be read or written: the one error of this package.
public struct FilesError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// A file could not be opened or read.
        case cannotRead
        /// A file or directory could not be created, written, flushed or renamed into place.
        case cannotWrite
        /// A path to be written names a symbolic link, a device, a fifo or a directory (or,
        /// for a staged directory, anything but a directory): refused, never replaced.
        case notAFile
        /// A file larger than its kind can be, refused before it is read.
        case tooLarge
    }

    public let code: Code
    /// One sentence for people, naming the path and, for a failed write, what was kept.
    public let reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { reason }
}
