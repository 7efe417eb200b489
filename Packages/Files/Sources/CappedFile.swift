import Foundation

/// Every file emrtd reads goes through `read`, with a cap on its size for its kind (the caps:
/// `InputLimit` in the CLI, `DumpLayout.maximumFileSize`), so that a wrong path (a disk image,
/// `/dev/zero`, a fifo fed forever) is refused at once rather than loaded into memory first: a
/// regular file's size is taken (`fstat`) before a byte is read, anything else is read to at
/// most one byte past the cap.
public enum CappedFile {
    /// What a file is expected to be: words for messages ("an LDS file") and its largest size.
    public struct Kind: Sendable {
        public let what: String
        public let limit: Int

        public init(_ what: String, limit: Int) {
            self.what = what
            self.limit = limit
        }
    }

    /// How many leading bytes `read(_:kind:)` shows its chooser.
    public static let prefixLength = 4096

    /// The whole of the file at `path`, at most `kind.limit` bytes.
    public static func read(_ path: String, as kind: Kind) throws(FilesError) -> [UInt8] {
        try read(path) { _ in kind }
    }

    /// The whole of the file at `path`, its kind (so its cap) chosen by `kind` from its first
    /// `prefixLength` bytes (a master list and an LDIF file have different caps).
    public static func read(_ path: String, kind: ([UInt8]) -> Kind) throws(FilesError) -> [UInt8] {
        // Non-blocking, so that a fifo nothing writes to is refused rather than waited on for ever.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw FilesError(.cannotRead, "cannot read \(path): \(errorText())") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw FilesError(.cannotRead, "cannot read \(path): \(errorText())")
        }
        if status.st_mode & S_IFMT == S_IFIFO {
            // A fifo with a writer (`<(command)`) is read as it comes; one without ends at once.
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            var first: UInt8 = 0
            var got = -1
            while got < 0 {
                got = Glibc.read(descriptor, &first, 1)
                if got < 0 {
                    guard errno == EAGAIN || errno == EINTR else {
                        throw FilesError(.cannotRead, "cannot read \(path): \(errorText())")
                    }
                    _ = poll(&ready, 1, -1)
                }
            }
            guard got == 1 else { throw FilesError(.cannotRead, "\(path) is a fifo that nothing writes to") }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
            return try read(descriptor, name: path, kind: kind, first: [first])
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return try read(descriptor, name: path, kind: kind)
    }

    /// Standard input, at most `kind.limit` bytes.
    public static func readStandardInput(as kind: Kind) throws(FilesError) -> [UInt8] {
        try read(STDIN_FILENO, name: "standard input") { _ in kind }
    }

    /// `first`: bytes already read from `descriptor` (a fifo's first).
    private static func read(
        _ descriptor: Int32, name: String, kind: ([UInt8]) -> Kind, first: [UInt8] = []
    ) throws(FilesError) -> [UInt8] {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw FilesError(.cannotRead, "cannot read \(name): \(errorText())")
        }
        let type = status.st_mode & S_IFMT
        guard type != S_IFDIR else { throw FilesError(.cannotRead, "\(name) is a directory, not a file") }
        var bytes = first
        try read(descriptor, name: name, upTo: prefixLength, into: &bytes)
        let expected = kind(bytes)
        let tooLarge = FilesError(
            .tooLarge, "\(name) holds more than \(expected.what) can be (\(describe(expected.limit)))")
        if type == S_IFREG {
            guard Int(status.st_size) <= expected.limit else {
                throw FilesError(
                    .tooLarge,
                    "\(name) holds \(status.st_size) bytes, more than \(expected.what) can be (\(describe(expected.limit)))"
                )
            }
            bytes.reserveCapacity(Int(status.st_size))
        }
        guard bytes.count <= expected.limit else { throw tooLarge }
        // One byte past the cap tells a file that is over it (one that grew, a pipe, a device).
        try read(descriptor, name: name, upTo: expected.limit + 1, into: &bytes)
        guard bytes.count <= expected.limit else { throw tooLarge }
        return bytes
    }

    /// Reads from `descriptor` onto `bytes` until it holds `count` bytes or the file ends.
    private static func read(
        _ descriptor: Int32, name: String, upTo count: Int, into bytes: inout [UInt8]
    ) throws(FilesError) {
        var chunk = [UInt8](repeating: 0, count: min(count, 1 << 20))
        while bytes.count < count {
            let wanted = min(chunk.count, count - bytes.count)
            let got = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, wanted) }
            if got < 0 {
                if errno == EINTR { continue }
                throw FilesError(.cannotRead, "cannot read \(name): \(errorText())")
            }
            if got == 0 { break }
            bytes += chunk[0..<got]
        }
    }

    /// `bytes` in words: `16 MiB`, `4096 bytes`.
    public static func describe(_ bytes: Int) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
