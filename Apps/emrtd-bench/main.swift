import Foundation

/// `emrtd-bench SUITE [--json] [--seconds S] [--ids 13,14] [--dir DIR]`: measures emrtd beside a reference in
/// the same run and reports the ratio of their rates (above 1 means emrtd is faster), as a table
/// or, with `--json`, as an array of `BenchRow`s. A suite is a file here with its entry below.
let allSuites: [Suite] = [
    curvesSuite, hashSuite, secureMessagingSuite, passiveAuthenticationSuite, jsonSuite, imageSuite, paceSuite,
    chipAuthenticationSuite, readSuite, memorySuite, sealSuite, pythonBindingSuite, jvmBindingSuite,
    jsonParseSuite,
]

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("\(message)\n".utf8))
    exit(status)
}

let suitesTakingIDs = allSuites.filter(\.takesParameterIDs).map(\.name).joined(separator: ", ")
let suitesTakingDirectory = allSuites.filter(\.takesDirectory).map(\.name).joined(separator: ", ")
let usage = """
    usage: emrtd-bench SUITE [--json] [--seconds S] [--ids 13,14] [--dir DIR]
    suites: \(allSuites.map(\.name).joined(separator: ", ")); --ids only for \(suitesTakingIDs); --dir only for \(suitesTakingDirectory)
    """
let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let suite = allSuites.first(where: { $0.name == name }) else {
    fail(usage, status: 2)
}
let options: BenchOptions
do {
    options = try BenchOptions(Array(arguments.dropFirst()))
} catch {
    fail("emrtd-bench \(name): \(error)\n\(usage)", status: 2)
}
if options.parameterIDs != nil && !suite.takesParameterIDs {
    fail("emrtd-bench \(name): --ids is only for \(suitesTakingIDs)\n\(usage)", status: 2)
}
if options.directory != nil && !suite.takesDirectory {
    fail("emrtd-bench \(name): --dir is only for \(suitesTakingDirectory)\n\(usage)", status: 2)
}
let run = BenchRun(options)
if !options.json { print(suite.title) }
do {
    try suite.measure(run)
} catch {
    fail("emrtd-bench \(name): \(error)", status: 1)
}
if options.json {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    guard let json = try? encoder.encode(run.rows) else { fail("emrtd-bench \(name): cannot write JSON", status: 1) }
    print(String(decoding: json, as: UTF8.self))
}
