import CodedErrors

/// Why a file could not be read or written: the one error of this package.
public typealias FilesError = PackageError<FilesErrorCode>

/// What went wrong, for `FilesError`.
public enum FilesErrorCode: String, ErrorCode {
    /// A file could not be opened or read.
    case cannotRead
    /// A file or directory could not be created, written, flushed or renamed into place.
    case cannotWrite
    /// A path to be written names a symbolic link, a device, a fifo or a directory (or,
    /// for a staged directory, anything but a directory): refused, never replaced.
    case notAFile
    /// A file larger than its kind can be, refused before it is read.
    case tooLarge

    /// The reason alone: it is the sentence people read.
    public static var showsCodeInDescription: Bool { false }
}
