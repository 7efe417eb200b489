import Files
import Foundation

/// Where the reader's default CSCA bundle lives, so that an installed `emrtd` finds it as well
/// as one run from the repository. Looked up in this order, the first file that exists wins:
///
/// 1. `$EMRTD_CSCA_BUNDLE`: when set, it is the only place looked at, and a file that is not
///    there is an error (a mistyped path must not turn into an empty store whose every verdict
///    reads `authorityCertificatesNotProvided`).
/// 2. `masterlist/csca.pem` in the working directory or a directory above the running
///    executable (a checkout: `swift run`, `.build/debug/emrtd`).
/// 3. `$XDG_DATA_HOME/emrtd/csca.pem` (default `~/.local/share/emrtd/csca.pem`): a user's own.
/// 4. `emrtd/csca.pem` under each of `$XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`):
///    the system-wide bundle a package installs.
///
/// `emrtd masterlist import` writes to `writeLocation`: the variable's file, the checkout's
/// `masterlist/csca.pem`, or else the user's XDG data directory.
public enum DefaultTrustBundle {
    /// Overrides every other location.
    public static let environmentVariable = "EMRTD_CSCA_BUNDLE"
    static let relativePath = "masterlist/csca.pem"
    /// The largest bundle read: what importing the largest ICAO PKD download writes (its LDIF
    /// cap, as PEM takes about the room of LDIF's base64), refused beyond before it is read.
    public static let maximumSize = 256 << 20
    static let dataPath = "emrtd/csca.pem"

    /// Every place looked at, in order (the variable alone when it is set).
    public static func candidates(environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
        if let path = environment[environmentVariable], !path.isEmpty { return [URL(fileURLWithPath: path)] }
        var places: [URL] = []
        if let checkout = checkoutFolder() { places.append(checkout.appendingPathComponent(relativePath)) }
        places.append(userDataHome(environment).appendingPathComponent(dataPath))
        let dataDirectories =
            environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        for directory in dataDirectories.split(separator: ":") where directory.hasPrefix("/") {
            places.append(URL(fileURLWithPath: String(directory)).appendingPathComponent(dataPath))
        }
        return places
    }

    /// The bundle that would be loaded: the first candidate that exists (the variable's file
    /// whether or not it exists); nil when there is none.
    public static var location: URL? {
        let places = candidates()
        if ProcessInfo.processInfo.environment[environmentVariable]?.isEmpty == false { return places.first }
        return places.first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// Where `emrtd masterlist import` writes: the variable's file, the checkout's
    /// `masterlist/csca.pem`, else `$XDG_DATA_HOME/emrtd/csca.pem` (its folder is created then).
    public static var writeLocation: URL {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment[environmentVariable], !path.isEmpty { return URL(fileURLWithPath: path) }
        if let checkout = checkoutFolder() { return checkout.appendingPathComponent(relativePath) }
        return userDataHome(environment).appendingPathComponent(dataPath)
    }

    /// The default bundle's certificates.
    /// - Throws: `CMSError` `notFound` when no bundle exists, naming every place looked at;
    ///   `unreadableFile` when `$EMRTD_CSCA_BUNDLE` names a file that is not there (a caller's
    ///   mistake, which a tool reports as an error); another code when the file does not parse.
    public static func load() throws(CMSError) -> TrustStore {
        let places = candidates()
        guard let location else {
            throw CMSError(
                .notFound,
                "no CSCA bundle in \(places.map(\.path).joined(separator: ", ")); "
                    + "`emrtd masterlist import` writes one, \(environmentVariable) names another")
        }
        let data: [UInt8]
        do throws(FilesError) {
            data = try CappedFile.read(location.path, as: CappedFile.Kind("a trust bundle", limit: maximumSize))
        } catch let error where error.code == .tooLarge {
            throw CMSError(.unreadableFile, error.reason)
        } catch {
            let named = places.count == 1 && ProcessInfo.processInfo.environment[environmentVariable] != nil
            throw CMSError(
                .unreadableFile,
                named
                    ? "\(environmentVariable) names \(location.path), which does not exist or cannot be read"
                    : "\(location.path) cannot be read")
        }
        var store = TrustStore()
        do throws(CMSError) {
            try store.add(pemOrDer: data)
        } catch {
            throw CMSError(error.code, "\(location.path): \(error.reason)")
        }
        store.defaultBundleSources = try BundleSources.beside(location)
        return store
    }

    /// The first of the working directory and the directories above the running executable that
    /// holds a `masterlist/` folder.
    private static func checkoutFolder() -> URL? {
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
        var folders = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
        var directory = executable.deletingLastPathComponent()
        while directory.pathComponents.count > 1 {
            folders.append(directory)
            directory = directory.deletingLastPathComponent()
        }
        return folders.first {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(
                atPath: $0.appendingPathComponent("masterlist").path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
    }

    /// `$XDG_DATA_HOME`, else `~/.local/share` (the XDG Base Directory rule).
    private static func userDataHome(_ environment: [String: String]) -> URL {
        if let home = environment["XDG_DATA_HOME"], home.hasPrefix("/") { return URL(fileURLWithPath: home) }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share")
    }
}
