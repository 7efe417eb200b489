import CEmrtdABI
import CMS
import Emrtd
import Files
import Foundation
import JSON
import LDS
import MRZ
import Output

/// The largest verify request: a dump's files in base64, far above any real one.
let verifyRequestLimit = 64 << 20

/// The files `verify` checks of one document, as `emrtd verify` loads them: EF.SOD, parsed, the
/// data groups beside it, and notes on files that were not checked.
struct DumpFiles {
    let securityObject: DocumentSecurityObject
    var dataGroups: [Int: [UInt8]] = [:]
    var notes: [String] = []

    /// Files by their dump names ("SOD.bin", "DG1.bin" …); `source` names them in errors.
    init(named files: [String: [UInt8]], source: String) throws(ReadError) {
        guard let sod = files[LDSFileKind.sod.dumpFileName] else {
            throw ReadError(
                .invalidArgument,
                "\(source) holds no \(LDSFileKind.sod.dumpFileName) (the layout `emrtd dump` writes)")
        }
        do throws(CMSError) {
            securityObject = try DocumentSecurityObject(bytes: sod)
        } catch {
            throw ReadError(
                .invalidArgument,
                "\(source)'s \(LDSFileKind.sod.dumpFileName) is not a readable EF.SOD: \(error.reason)")
        }
        for number in 1...16 {
            if let kind = LDSFileKind.dataGroup(number), let bytes = files[kind.dumpFileName] {
                dataGroups[number] = bytes
            }
        }
        let layout = Set(LDSFileKind.allCases.map(\.dumpFileName))
        notes = files.keys.filter { $0.lowercased().hasSuffix(".bin") && !layout.contains($0) }.sorted().map {
            "\($0) is not a file name of the dump layout (COM.bin, SOD.bin, DG1.bin … DG16.bin) and was not checked"
        }
    }

    /// A dump folder: its layout's files read to their cap (`CappedFile`), and the names of the
    /// other `.bin` files for the notes.
    init(folder directory: String) throws(ReadError) {
        var status = stat()
        guard stat(directory, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
            throw ReadError(
                .invalidArgument, "\(directory) is not a directory (a dump folder, the layout `emrtd dump` writes)")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let kinds: [LDSFileKind] = [.sod] + (1...16).compactMap { LDSFileKind.dataGroup($0) }
        let wanted = Set(kinds.map(\.dumpFileName))
        var files: [String: [UInt8]] = [:]
        for name in names {
            guard wanted.contains(name) else {
                if name.lowercased().hasSuffix(".bin") { files[name] = [] }
                continue
            }
            do throws(FilesError) {
                files[name] = try CappedFile.read(
                    directory + "/" + name, as: CappedFile.Kind("an LDS file", limit: DumpLayout.maximumFileSize))
            } catch {
                throw ReadError(.invalidArgument, error.reason)
            }
        }
        try self.init(named: files, source: directory)
    }
}

// replaced by Emrtd's verify when it lands
/// The verdict `emrtd verify --dir` prints for `files`: Passive Authentication's JSON with
/// `checks` and `warnings` added (VerifySettings.verify's, through the packages' public API).
func verifyDump(
    _ files: DumpFiles, trustStore: TrustStore, trustWarning: String?, at time: Date,
    printedZone: MachineReadableZone?
) -> JSONValue {
    var notes = files.notes
    var chipZone: MachineReadableZone?
    if let dataGroup1 = files.dataGroups[1] {
        do throws(LDSError) {
            chipZone = try MRZDataGroup(dataGroup1).machineReadableZone
        } catch {
            notes.append("DG1 does not parse: \(error.reason)")
        }
    }
    let verdict = PassiveAuthentication.verify(
        files.securityObject, dataGroups: files.dataGroups, trustStore: trustStore, at: time,
        issuingState: chipZone?.fields.issuingState)
    let checks = DocumentChecks(data: verdict, chip: nil, chipZone: chipZone, printedZone: printedZone, at: time)
    let warnings = [trustWarning].compactMap { $0 } + notes + checks.warnings
    guard case .object(let members) = verdict.json else { return verdict.json }
    return .object(
        members + [
            JSONMember("checks", checks.json), JSONMember("warnings", .array(warnings.map(JSONValue.string))),
        ])
}

/// One verification: the request's time and printed zone, the caller's store or the built-in one.
private func verify(_ files: DumpFiles, options: RequestObject, trust: TrustStoreHandle?) throws(ReadError) -> String {
    let time = try options.time("at") ?? Date()
    var printedZone: MachineReadableZone?
    if let lines = try options.strings("mrzLines") {
        do throws(MRZError) {
            printedZone = try parseMrz(lines: lines)
        } catch {
            throw ReadError(.invalidArgument, "mrzLines is not a valid MRZ: \(error.reason)")
        }
    }
    let handle: TrustStoreHandle
    if let trust { handle = trust } else { handle = try TrustStoreHandle(useBuiltIn: true, entries: []) }
    return verifyDump(
        files, trustStore: handle.store, trustWarning: handle.warning, at: time, printedZone: printedZone
    ).serialized(pretty: true)
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
            RequestObject.parse(text, what: what), what: what, allowed: ["dir", "files", "at", "mrzLines"])
        let files: DumpFiles
        switch (try request.string("dir"), request["files"]) {
        case (let directory?, nil):
            files = try DumpFiles(folder: directory)
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
            files = try DumpFiles(named: named, source: "the files given")
        default:
            throw ReadError(.invalidArgument, "\(what) needs exactly one of \"dir\" and \"files\"")
        }
        return try verify(files, options: request, trust: TrustStoreHandle.borrow(trust))
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
                what: what, allowed: ["at", "mrzLines"])
        return try verify(
            DumpFiles(named: named, source: "the files given"), options: options, trust: TrustStoreHandle.borrow(trust))
    }
}
