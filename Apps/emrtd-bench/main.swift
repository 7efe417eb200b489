import Foundation

/// `emrtd-bench SUITE [--json]`: measures emrtd beside a reference (OpenSSL)
/// in the same run and reports the ratio (above 1 means emrtd is faster).
/// Suites register themselves in `allSuites`.
let allSuites: [String: (_ arguments: [String]) -> Int32] = [
    "curves": curvesSuite, "hash": hashSuite, "sm": secureMessagingSuite, "pa": passiveAuthenticationSuite,
    "json": jsonSuite, "image": imageSuite,
]

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let suite = allSuites[name] else {
    FileHandle.standardError.write(
        Data("usage: emrtd-bench SUITE [--json]\nsuites: \(allSuites.keys.sorted().joined(separator: ", "))\n".utf8))
    exit(2)
}
exit(suite(Array(arguments.dropFirst())))
