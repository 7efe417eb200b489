import CMS
import Foundation
import LDS

/// `emrtd verify`: Passive Authentication of files a dump wrote, offline.
enum VerifyCommand: Command {
    static let name = "verify"
    static let summary = "check EF.SOD and the data groups of a dump (Passive Authentication) and print the verdict"
    static let usage = """
        usage: emrtd verify --dir DIR [--csca FILE]... [--masterlist FILE.ml --ml-root CERT]...
                            [--no-builtin] [--at ISO8601]
               emrtd verify --sod FILE [same options]

        Checks DIR/SOD.bin against DIR/DG1.bin … DIR/DG16.bin (the files a dump writes), or a
        lone EF.SOD whose data groups then come out notRead, and prints the Passive
        Authentication verdict as JSON. Trusted CSCAs: the default bundle (masterlist/csca.pem,
        see masterlist/README.md; --no-builtin leaves it out), PEM or DER files given with
        --csca, and master lists checked against the root named by the --ml-root after each.
        --at checks certificate validity at that time instead of now.
        Exit status: 0 authenticated, 3 not authenticated, 1 unreadable input, 2 wrong command line.
        """

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        let directory = try arguments.option("--dir")
        let sodFile = try arguments.option("--sod")
        let trust = try TrustOptions.read(&arguments, builtIn: true)
        guard try arguments.positionals().isEmpty else { throw UsageError("unexpected arguments") }

        let securityObject: [UInt8]
        var dataGroups: [Int: [UInt8]] = [:]
        switch (directory, sodFile) {
        case (let directory?, nil):
            let folder = URL(fileURLWithPath: directory)
            securityObject = try readFile(folder.appendingPathComponent(LDSFileKind.sod.dumpFileName).path)
            for number in 1...16 {
                guard let file = LDSFileKind.dataGroup(number) else { continue }
                let path = folder.appendingPathComponent(file.dumpFileName).path
                if FileManager.default.fileExists(atPath: path) { dataGroups[number] = try readFile(path) }
            }
        case (nil, let sodFile?):
            securityObject = try readFile(sodFile)
        default:
            throw UsageError("give exactly one of --dir and --sod")
        }
        let verdict = PassiveAuthentication.verify(
            securityObject: securityObject, dataGroups: dataGroups, trustStore: trust.store, at: trust.time)
        print(verdict.json.serialized(pretty: true))
        return verdict.status == .authenticated ? 0 : 3
    }
}
