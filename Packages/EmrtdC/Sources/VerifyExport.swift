import ASN1
import CEmrtdABI
import Emrtd
import Foundation
import JSON
import LDS
import MRZ
import Output

/// The largest verify request: a dump's files in base64, far above any real one.
let verifyRequestLimit = 64 << 20

/// A dump's files, the notes on names outside its layout, as `emrtd verify` loads them
/// (`DumpLayout`), and its `evidence.json` (nil without one).
typealias DumpFiles = (files: LdsMasterFile, notes: [String], evidence: AcquisitionEvidence?)

/// A dump folder, each file read to its cap (`DumpLayout.read`, `DumpLayout.readEvidence`).
func dumpFiles(folder directory: String) throws(ReadError) -> DumpFiles {
    do throws(OutputError) {
        let dump = try DumpLayout.read(directory)
        return (dump.files, dump.notes, try DumpLayout.readEvidence(directory))
    } catch {
        throw ReadError(.invalidArgument, error.reason)
    }
}

/// Files by dump name (a host's, in memory): `evidence.json` among them is the read's evidence.
func dumpFiles(named: [String: [UInt8]]) throws(ReadError) -> DumpFiles {
    let dump = DumpLayout.files(named: named)
    do throws(OutputError) {
        return (dump.files, dump.notes, try named[DumpLayout.evidenceName].map(DumpLayout.decodedEvidence))
    } catch {
        throw ReadError(.invalidArgument, error.reason)
    }
}

/// One verification: the request's time and printed zone, the caller's store or the built-in one.
private func verify(_ files: DumpFiles, source: String, options: RequestObject, trust: TrustStoreHandle?)
    throws(ReadError) -> String
{
    var challenge: [UInt8]?
    if let text = try options.string("challenge") {
        guard let bytes = Hex.decode(text), bytes.count == 8 else {
            throw ReadError(.invalidArgument, "challenge must be the 8-byte Active Authentication challenge in hex")
        }
        challenge = bytes
    }
    let securityObjectName = LDSFileKind.sod.dumpFileName
    guard files.files.sod != nil else {
        throw ReadError(.invalidArgument, "\(source) holds no \(securityObjectName) (the layout `emrtd dump` writes)")
    }
    let time = try options.time("at") ?? Date()
    var printedZone: MachineReadableZone?
    if let lines = try options.strings("mrzLines") {
        do throws(MRZError) {
            printedZone = try MachineReadableZone.parse(lines: lines)
        } catch {
            throw ReadError(.invalidArgument, "mrzLines is not a valid MRZ: \(error.reason)")
        }
    }
    let handle: TrustStoreHandle
    if let trust { handle = trust } else { handle = try TrustStoreHandle(useBuiltIn: true, entries: []) }
    // `emrtd verify --dir`'s own verdict (`FileSetVerification`), so both print the same JSON.
    do throws(ReadError) {
        return try FileSetVerification(
            files: files.files, trustStore: handle.store, at: time, printedZone: printedZone,
            warnings: [handle.warning].compactMap { $0 } + files.notes,
            chipEvidence: OfflineChipEvidence(recorded: files.evidence, challenge: challenge)
        ).json.serialized(pretty: true)
    } catch {
        throw ReadError(.invalidArgument, "\(source)'s \(securityObjectName) is not a readable EF.SOD: \(error.reason)")
    }
}

/// `emrtd_verify`: a dump folder or files in base64, as JSON.
@_cdecl("emrtd_verify")
public func emrtdVerify(
    _ requestJSON: UnsafePointer<CChar>?, _ length: Int, _ trust: OpaquePointer?,
    _ result: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ resultLength: UnsafeMutablePointer<Int>?
) -> Int32 {
    ABIResult.run(result, resultLength) { () throws(ReadError) in
        let what = "the verify request"
        let text = try callerText(requestJSON, length, limit: verifyRequestLimit, what: what)
        let request = try RequestObject(
            RequestObject.parse(text, what: what), what: what, allowed: ["dir", "files", "at", "mrzLines", "challenge"])
        let files: DumpFiles
        let source: String
        switch (try request.string("dir"), request["files"]) {
        case (let directory?, nil):
            files = try dumpFiles(folder: directory)
            source = directory
        case (nil, let object?):
            guard case .object(let members) = object else {
                throw ReadError(.invalidArgument, "\(what)'s \"files\" must be an object of file names to base64")
            }
            var named: [String: [UInt8]] = [:]
            for member in members {
                guard case .string(let encoded) = member.value, let data = Data(base64Encoded: encoded) else {
                    throw ReadError(.invalidArgument, "\(what)'s file \"\(member.key)\" is not base64")
                }
                named[member.key] = [UInt8](data)
            }
            files = try dumpFiles(named: named)
            source = "the files given"
        default:
            throw ReadError(.invalidArgument, "\(what) needs exactly one of \"dir\" and \"files\"")
        }
        return try verify(files, source: source, options: request, trust: TrustStoreHandle.borrow(trust))
    }
}

/// `emrtd_verify_files`: the dump as C structs.
@_cdecl("emrtd_verify_files")
public func emrtdVerifyFiles(
    _ files: UnsafePointer<emrtd_file>?, _ count: Int, _ optionsJSON: UnsafePointer<CChar>?, _ optionsLength: Int,
    _ trust: OpaquePointer?, _ result: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ resultLength: UnsafeMutablePointer<Int>?
) -> Int32 {
    ABIResult.run(result, resultLength) { () throws(ReadError) in
        guard count >= 0, count <= 64 else {
            throw ReadError(.invalidArgument, "\(count) files; a dump has at most 64")
        }
        guard count == 0 || files != nil else {
            throw ReadError(.invalidArgument, "the files are NULL with a count of \(count)")
        }
        var named: [String: [UInt8]] = [:]
        for index in 0..<count {
            guard let file = files?[index] else { break }
            guard let namePointer = file.name,
                let name = String(validatingCString: namePointer)
            else {
                throw ReadError(.invalidArgument, "file \(index + 1)'s name is NULL or not UTF-8")
            }
            named[name] = try callerBytes(
                file.data, file.length, limit: DumpLayout.maximumFileSize, what: "the file \(name)")
        }
        let what = "the verify options"
        let options =
            optionsLength == 0 && optionsJSON == nil
            ? try RequestObject(.object([]), what: what, allowed: [])
            : try RequestObject(
                RequestObject.parse(
                    callerText(optionsJSON, optionsLength, limit: mrzRequestLimit, what: what), what: what),
                what: what, allowed: ["at", "mrzLines", "challenge"])
        return try verify(
            try dumpFiles(named: named), source: "the files given", options: options,
            trust: TrustStoreHandle.borrow(trust))
    }
}
