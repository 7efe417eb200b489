import CEmrtdABI
import Emrtd
import Glibc

/// What an exported call hands back: text in a buffer the caller owns (`emrtd_free`), and the
/// status beside it.
enum ABIResult {
    /// Writes `text` to `result` (malloc'd, NUL-terminated) and returns `status`, or
    /// `EMRTD_OUT_OF_MEMORY` with `result` NULL when it cannot be allocated.
    static func deliver(
        _ text: String, status: Int32, to result: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
        length: UnsafeMutablePointer<Int>
    ) -> Int32 {
        var text = text
        return text.withUTF8 { bytes in
            guard let buffer = malloc(bytes.count + 1)?.assumingMemoryBound(to: CChar.self) else {
                result.pointee = nil
                length.pointee = 0
                return Int32(EMRTD_OUT_OF_MEMORY)
            }
            if let base = bytes.baseAddress { memcpy(buffer, base, bytes.count) }
            buffer[bytes.count] = 0
            result.pointee = buffer
            length.pointee = bytes.count
            return status
        }
    }

    /// The error as `readErrorToJson` writes it, with its status.
    static func deliver(
        _ error: ReadError, to result: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
        length: UnsafeMutablePointer<Int>
    ) -> Int32 {
        deliver(readErrorToJson(error: error), status: status(of: error), to: result, length: length)
    }

    /// Runs `body` with the caller's output pointers, which every exported call needs: without
    /// them there is nowhere to put even an error, so the call is refused and writes nothing.
    static func run(
        _ result: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ length: UnsafeMutablePointer<Int>?,
        _ body: () throws(ReadError) -> String
    ) -> Int32 {
        guard let result, let length else { return Int32(EMRTD_INVALID_ARGUMENT) }
        do throws(ReadError) {
            return deliver(try body(), status: Int32(EMRTD_OK), to: result, length: length)
        } catch {
            return deliver(error, to: result, length: length)
        }
    }

    /// The reference's variant as the header's status.
    static func status(of error: ReadError) -> Int32 {
        switch error {
        case .InvalidArgument: Int32(EMRTD_INVALID_ARGUMENT)
        case .AccessControl: Int32(EMRTD_ACCESS_CONTROL)
        case .ChipAuthentication: Int32(EMRTD_CHIP_AUTHENTICATION)
        case .NotConnected: Int32(EMRTD_NOT_CONNECTED)
        case .Read: Int32(EMRTD_READ)
        case .Cancelled: Int32(EMRTD_CANCELLED)
        case .NfcUnavailable: Int32(EMRTD_NFC_UNAVAILABLE)
        }
    }
}

/// Text the caller gave: `length` bytes of UTF-8 at most `limit`, refused (never trapped on)
/// when NULL, too long or not UTF-8. `what` names it in the error.
func callerText(_ pointer: UnsafePointer<CChar>?, _ length: Int, limit: Int, what: String) throws(ReadError)
    -> String
{
    guard length >= 0, length <= limit else {
        throw ReadError(.invalidArgument, "\(what) is \(length) bytes; at most \(limit) are accepted")
    }
    guard let pointer else {
        if length == 0 { throw ReadError(.invalidArgument, "\(what) is missing (NULL)") }
        throw ReadError(.invalidArgument, "\(what) is NULL with a length of \(length)")
    }
    let bytes = UnsafeRawBufferPointer(start: pointer, count: length).bindMemory(to: UInt8.self)
    guard let text = String(validating: bytes, as: UTF8.self) else {
        throw ReadError(.invalidArgument, "\(what) is not UTF-8 text")
    }
    return text
}

/// The caller's bytes, copied: refused when NULL with a length, or longer than `limit`.
func callerBytes(_ pointer: UnsafePointer<UInt8>?, _ length: Int, limit: Int, what: String) throws(ReadError)
    -> [UInt8]
{
    guard length >= 0, length <= limit else {
        throw ReadError(.invalidArgument, "\(what) is \(length) bytes; at most \(limit) are accepted")
    }
    guard length > 0 else { return [] }
    guard let pointer else { throw ReadError(.invalidArgument, "\(what) is NULL with a length of \(length)") }
    return Array(UnsafeBufferPointer(start: pointer, count: length))
}

/// `emrtd_version`: static text, never freed (`Emrtd`'s `emrtdReleaseVersion`, which `emrtd
/// --version` prints: a literal in the library's read-only data, NUL-terminated).
@_cdecl("emrtd_version")
public func emrtdVersion() -> UnsafePointer<CChar> {
    UnsafeRawPointer(emrtdReleaseVersion.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// `emrtd_free`: text the library returned.
@_cdecl("emrtd_free")
public func emrtdFree(_ text: UnsafeMutablePointer<CChar>?) {
    free(text)
}
