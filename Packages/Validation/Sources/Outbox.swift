import ASN1
import CryptoPrimitives
import Files
import Foundation
import JSON
import Synchronization

/// A result waiting for its result server's confirmation.
struct OutboxEntry: Sendable, Equatable {
    var validationId: String
    var clientId: String
    /// Where the tenant's results went when this one was stored (a restart with another tenants
    /// file still delivers it there).
    var resultURL: URL
    /// The hello's headers, forwarded with every attempt.
    var headers: [String: String]
    /// Unix seconds when stored: delivery is tried until this plus the retry time.
    var storedAt: Int
    /// The result's JSON text, byte for byte as POSTed.
    var body: String
}

/// The durable outbox of results (`emrtd serve --outbox DIR`): one file per tenant and
/// `validationId`, written whole before the first POST and removed only once a result server
/// answered 2xx, so that neither a result server's outage nor a crash of the server loses a
/// read. One process owns a folder (an exclusive `flock` on `DIR/.lock`).
///
/// A file is `<hex SHA-256 of clientId 0x00 validationId>.result` (client-chosen identifiers
/// never reach a path): one line of JSON (the entry without the body), a newline, the body. It
/// is written to a temporary file in the folder, synced, renamed into place and the folder
/// synced: a crash leaves the old state or the new, never a part.
final class Outbox: Sendable {
    let directory: String
    /// Held open for the process's life: the folder's lock.
    private let lockDescriptor: Int32
    /// The entries present, so that a second result for a pending one is refused, not swapped
    /// under its delivery.
    private let present = Mutex<Set<String>>([])

    /// The largest entry read back (a result with every image is a few MB).
    static let maximumEntrySize = 64 << 20
    private static let suffix = ".result"

    /// Creates the folder (0700) when missing, takes its lock, and clears temporary files a
    /// crash left.
    init(directory: String) throws(ValidationError) {
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ValidationError(.io, "cannot create the outbox \(directory): it is not a folder emrtd can write")
        }
        // Said as it is: a folder that cannot be written is not one "in use".
        guard access(directory, W_OK | X_OK) == 0 else {
            throw ValidationError(.io, "cannot write the outbox \(directory): \(String(cString: strerror(errno)))")
        }
        let lock = open(directory + "/.lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lock >= 0 else {
            throw ValidationError(
                .io, "cannot lock the outbox \(directory) (its .lock): \(String(cString: strerror(errno)))")
        }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            close(lock)
            throw ValidationError(.io, "the outbox \(directory) is in use by another emrtd serve (each needs its own)")
        }
        self.directory = directory
        lockDescriptor = lock
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where AtomicFile.isTemporaryName(name) { unlink(directory + "/" + name) }
        present.withLock { $0 = Set(names.filter { $0.hasSuffix(Self.suffix) && !$0.hasPrefix(".") }) }
    }

    deinit { close(lockDescriptor) }

    /// The entries present, by file name.
    var names: [String] { present.withLock { Array($0) } }

    /// The file name of a tenant's `validationId`.
    static func name(clientId: String, validationId: String) -> String {
        let digest = HashAlgorithm.sha256.hash(Array(clientId.utf8) + [0] + Array(validationId.utf8))
        return Hex.encode(digest, uppercase: false) + suffix
    }

    /// Writes `entry` whole and returns its name; refused when one for the same tenant and
    /// `validationId` is still pending (the first result stands).
    func store(_ entry: OutboxEntry) throws(ValidationError) -> String {
        let name = Self.name(clientId: entry.clientId, validationId: entry.validationId)
        let reserved = present.withLock { $0.insert(name).inserted }
        guard reserved else {
            throw ValidationError(.invalidArgument, "a result for this validationId is still pending delivery")
        }
        let header: JSONValue = [
            "format": "emrtd-outbox-1", "validationId": .string(entry.validationId),
            "clientId": .string(entry.clientId), "resultURL": .string(entry.resultURL.absoluteString),
            "headers": .object(entry.headers.sorted { $0.key < $1.key }.map { JSONMember($0.key, .string($0.value)) }),
            "storedAt": .integer(entry.storedAt),
        ]
        do throws(ValidationError) {
            try writeWhole(Array((header.serialized() + "\n" + entry.body).utf8), name: name)
        } catch {
            present.withLock { _ = $0.remove(name) }
            throw error
        }
        return name
    }

    /// The entry in file `name`.
    func load(_ name: String) throws(ValidationError) -> OutboxEntry {
        let path = directory + "/" + name
        // Only a regular file is an entry: a symbolic link put in the outbox is not followed.
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw ValidationError(.invalidArgument, "outbox entry \(name) is not a regular file")
        }
        let bytes: [UInt8]
        do throws(FilesError) {
            bytes = try CappedFile.read(path, as: CappedFile.Kind("an outbox entry", limit: Self.maximumEntrySize))
        } catch {
            throw ValidationError(.io, "outbox entry \(name) cannot be read: \(error.reason)")
        }
        guard let newline = bytes.firstIndex(of: 0x0A),
            let header = try? JSONValue.parse(String(decoding: bytes[..<newline], as: UTF8.self)),
            header["format"] == .string("emrtd-outbox-1"), case .string(let validationId)? = header["validationId"],
            case .string(let clientId)? = header["clientId"], case .string(let address)? = header["resultURL"],
            let url = URL(string: address), url.scheme == "http" || url.scheme == "https",
            case .integer(let storedAt)? = header["storedAt"],
            case .object(let members)? = header["headers"]
        else { throw ValidationError(.invalidArgument, "outbox entry \(name) is not an outbox entry") }
        var headers: [String: String] = [:]
        for member in members {
            guard case .string(let value) = member.value else {
                throw ValidationError(.invalidArgument, "outbox entry \(name) has a header that is not a string")
            }
            headers[member.key] = value
        }
        return OutboxEntry(
            validationId: validationId, clientId: clientId, resultURL: url, headers: headers, storedAt: storedAt,
            body: String(decoding: bytes[(newline + 1)...], as: UTF8.self))
    }

    /// Removes a delivered entry. Not synced: an entry a crash brings back is delivered once
    /// more, which the result server's de-duplication absorbs.
    func remove(_ name: String) {
        unlink(directory + "/" + name)
        present.withLock { _ = $0.remove(name) }
    }

    /// Moves an entry that will not be delivered (its retry time is over, or it cannot be read)
    /// to `DIR/undeliverable/`, kept for the operator, never deleted.
    func setAside(_ name: String) {
        let aside = directory + "/undeliverable"
        try? FileManager.default.createDirectory(
            atPath: aside, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        if rename(directory + "/" + name, aside + "/" + name) == 0 {
            present.withLock { _ = $0.remove(name) }
        }
    }

    /// One entry, private to the server (0600), written whole or not at all.
    private func writeWhole(_ bytes: [UInt8], name: String) throws(ValidationError) {
        do throws(FilesError) {
            try AtomicFile.write(bytes, to: directory + "/" + name, mode: 0o600)
        } catch {
            throw ValidationError(.io, error.reason)
        }
    }
}
