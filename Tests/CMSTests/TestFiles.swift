import Foundation
import TestSupport
import Testing

/// Where the tests' files live: `../shared/data` beside the repository (real documents;
/// missing outside CI is a skip with a printed reason, under `CI=true` a failure) and the
/// committed fixtures in `Tests/Fixtures/CMS`.
enum TestFiles {
    static let sharedData = Prerequisites.shared.appendingPathComponent("data")
    static let fixtures = Prerequisites.repositoryRoot.appendingPathComponent("Tests/Fixtures/CMS")

    /// `../shared/data/<path>` when it exists; otherwise nil after recording why.
    static func shared(_ path: String) -> URL? { Prerequisites.shared("data/" + path) }

    static func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }

    /// The files of `folder` whose names match `pattern`'s data-group number, as DG number → bytes.
    static func dataGroups(in folder: URL, named name: (Int) -> String) throws -> [Int: [UInt8]] {
        var groups: [Int: [UInt8]] = [:]
        for number in 1...16 {
            let url = folder.appendingPathComponent(name(number))
            if FileManager.default.fileExists(atPath: url.path) { groups[number] = try bytes(url) }
        }
        return groups
    }

    /// A UTC date from "YYYY-MM-DD".
    static func date(_ text: String) -> Date {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        var components = DateComponents()
        components.calendar = Calendar(identifier: .gregorian)
        components.timeZone = TimeZone(identifier: "UTC")
        (components.year, components.month, components.day) = (parts[0], parts[1], parts[2])
        return components.date ?? Date(timeIntervalSince1970: 0)
    }
}
