import CodedErrors

/// Why an output could not be written: the one error of this package.
public typealias OutputError = PackageError<OutputErrorCode>

/// What went wrong, for `OutputError`.
public enum OutputErrorCode: String, ErrorCode {
    /// A file or directory could not be created or written.
    case cannotWrite
    /// A dump directory holds no file the report can be made from, or an input file cannot
    /// be read.
    case cannotRead
    /// A path to be written names a symbolic link, a device, a fifo or a folder (or, for a
    /// dump, anything but a folder): refused, never replaced.
    case notAFile
    /// The dump's folder holds another document's dump, or files emrtd did not write.
    case occupied
    /// An input file larger than its kind can be (`CappedFile`), refused before reading it.
    case tooLarge

    /// The reason alone: it is the sentence people read.
    public static var showsCodeInDescription: Bool { false }
}
