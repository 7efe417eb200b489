import CMS
import CVCertificates
import Files
import Foundation
import Output

/// The largest input each kind of file can be, checked before a byte of it is read
/// (`CappedFile`), so that a wrong path (a disk image, /dev/zero, 200 MB on stdin) is refused at
/// once with a message rather than loaded into memory first. `emrtd --help` lists them.
enum InputLimit {
    /// An LDS file (`parse`, a dump's files): a 3-byte BER length at most.
    static let ldsFile = DumpLayout.maximumFileSize
    /// A certificate, a PEM bundle or a CRL given as an option (`--csca`, `--crl`, `--ml-root`).
    static let certificates = 64 << 20
    /// The default trust bundle, which `masterlist import` reads before replacing it.
    static let trustBundle = DefaultTrustBundle.maximumSize
    /// A CSCA master list: the ICAO master list is about 1 MiB, the largest national ones a few.
    static let masterList = 64 << 20
    /// An ICAO PKD download (LDIF): the complete DSC and CRL file is tens of MB.
    static let pkdLDIF = 256 << 20
    /// An MRZ on standard input: 3 lines of 30 or 2 of 44 characters, with room for blank
    /// lines and spaces; far more is not a zone.
    static let mrzText = 4096
    /// A photo or scan of a seal (`seal --image`): a phone's JPEG is a few MB.
    static let sealPicture = 64 << 20
    /// A configuration file (the validation service's tenants).
    static let configuration = 1 << 20
    /// A card-verifiable certificate (`emrtd cvc`).
    static let cvCertificate = CVCertificate.maximumLength
    /// A seal as a barcode reader gives it: the largest seal read, written as hexadecimal, with room.
    static let seal = 64 << 10

    /// The caps in words, for `emrtd --help`.
    static let summary = """
        input limits (a larger file is refused before it is read): an LDS file \(CappedFile.describe(ldsFile)),
        a certificate, PEM bundle or CRL \(CappedFile.describe(certificates)), a master list \(CappedFile.describe(masterList)),
        an ICAO PKD LDIF file \(CappedFile.describe(pkdLDIF)), the default trust bundle \(CappedFile.describe(trustBundle)),
        an MRZ on standard input \(CappedFile.describe(mrzText)), a tenants file \(CappedFile.describe(configuration)),
        a CV certificate \(CappedFile.describe(cvCertificate)),
        a seal or a barcode reader's output \(CappedFile.describe(seal))
        """
}

/// The whole of the file at `path`, refused without reading it when it is
/// larger than `limit` (`what` names the kind of file in the message: "an LDS file").
func readFile(_ path: String, limit: Int, what: String) throws(CommandFailure) -> [UInt8] {
    try readFile(path) { _ in CappedFile.Kind(what, limit: limit) }
}

/// The whole of the file at `path`, its cap chosen by `kind` from its first bytes.
func readFile(_ path: String, kind: ([UInt8]) -> CappedFile.Kind) throws(CommandFailure) -> [UInt8] {
    do throws(FilesError) {
        return try CappedFile.read(path, kind: kind)
    } catch {
        throw CommandFailure(error.reason)
    }
}

/// Standard input, at most `limit` bytes (refused beyond, without reading the rest).
func readStandardInput(limit: Int, what: String) throws(CommandFailure) -> [UInt8] {
    do throws(FilesError) {
        return try CappedFile.readStandardInput(as: CappedFile.Kind(what, limit: limit))
    } catch {
        throw CommandFailure(error.reason)
    }
}

/// What went wrong with a file or folder, in a user's words: Foundation's own text is
/// "The operation could not be completed. (NSCocoaErrorDomain error 516.)".
func fileSystemWords(_ error: any Error) -> String {
    if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
    guard let cocoa = error as? CocoaError else { return "\(error)" }
    if let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
        return String(cString: strerror(Int32(underlying.code)))
    }
    switch cocoa.code {
    case .fileWriteFileExists: return "something that is not a folder is already there"
    case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file or folder"
    case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
    case .fileWriteVolumeReadOnly: return "the file system is read-only"
    case .fileWriteOutOfSpace: return "no space left on the device"
    default: return "a file system error (\(cocoa.code.rawValue))"
    }
}
