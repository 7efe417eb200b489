import Foundation

/// The largest input each kind of file can be, checked before a byte of it is read, so that a
/// wrong path (a disk image, /dev/zero, 200 MB on stdin) is refused at once with a message
/// rather than loaded into memory first.
enum InputLimit {
    /// An LDS file: an elementary file's size is at most a 3-byte BER length (16 MiB); real
    /// ones, fingerprints included, stay far below.
    static let ldsFile = 16 << 20
    /// A certificate, a PEM bundle or a master list: the ICAO master list is about 1 MiB.
    static let certificates = 64 << 20
    /// An ICAO PKD download (LDIF) or a master list: the PKD's complete DSC file is some hundred MB.
    static let pkdDownload = 1 << 30
    /// An MRZ on standard input: 3 lines of 30 or 2 of 44 characters, with room for blank
    /// lines and spaces; far more is not a zone.
    static let mrzText = 4096
    /// A configuration file (the validation service's tenants).
    static let configuration = 1 << 20

    /// `bytes` in words: `16 MiB`, `4096 bytes`.
    static func describe(_ bytes: Int) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}

/// The whole of the file at `path`, refused without reading it when it is larger than `limit`
/// (`what` names the kind of file in the message: "an LDS file").
func readFile(_ path: String, limit: Int, what: String) throws -> [UInt8] {
    var status = stat()
    guard stat(path, &status) == 0 else {
        throw CommandFailure("cannot read \(path): \(String(cString: strerror(errno)))")
    }
    if (status.st_mode & S_IFMT) == S_IFDIR { throw CommandFailure("\(path) is a directory, not a file") }
    if (status.st_mode & S_IFMT) == S_IFREG, Int(status.st_size) > limit {
        throw CommandFailure(
            "\(path) holds \(status.st_size) bytes, more than \(what) can be (\(InputLimit.describe(limit)))")
    }
    guard let handle = FileHandle(forReadingAtPath: path) else {
        throw CommandFailure("cannot read \(path): \(String(cString: strerror(errno)))")
    }
    defer { try? handle.close() }
    // Not a regular file (a pipe, a device): read one byte past the limit to know it is over.
    let data = (try? handle.read(upToCount: limit + 1)) ?? Data()
    guard data.count <= limit else {
        throw CommandFailure("\(path) holds more than \(what) can be (\(InputLimit.describe(limit)))")
    }
    return [UInt8](data)
}

/// Standard input, at most `limit` bytes (refused beyond, without reading the rest).
func readStandardInput(limit: Int, what: String) throws -> [UInt8] {
    let data = (try? FileHandle.standardInput.read(upToCount: limit + 1)) ?? Data()
    guard data.count <= limit else {
        throw CommandFailure("standard input holds more than \(what) can be (\(InputLimit.describe(limit)))")
    }
    return [UInt8](data)
}
