import Files
import Foundation
import Glibc
import Testing

/// `AtomicFile`, `StagedFolder` and `CappedFile` on a real file system: what they write,
/// replace, refuse and leave behind. (A full disk is `EmrtdCLITests`' `FileSafetyCLITests`.)
@Suite struct FilesTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("output-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func entries() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted() }

    /// A new file gets the mode asked (less the umask), a replaced one keeps its own; no
    /// temporary file stays beside it.
    @Test func writesAndReplacesKeepingTheMode() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let keys = path("keys.der")
        try AtomicFile.write([1, 2, 3], to: keys, mode: 0o600)
        var status = stat()
        #expect(stat(keys, &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(chmod(keys, 0o640) == 0)
        try AtomicFile.write([4], to: keys)
        #expect(stat(keys, &status) == 0 && status.st_mode & 0o777 == 0o640)
        #expect(try Data(contentsOf: URL(fileURLWithPath: keys)) == Data([4]))
        #expect(entries() == ["keys.der"])
    }

    /// A symbolic link (to a file or dangling), a fifo or a folder at the path is refused and
    /// stays what it was.
    @Test func refusesWhatIsNotARegularFile() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("kept".utf8).write(to: URL(fileURLWithPath: path("target")))
        #expect(symlink(path("target"), path("link")) == 0)
        #expect(symlink(path("nowhere"), path("dangling")) == 0)
        #expect(mkfifo(path("fifo"), 0o600) == 0)
        #expect(mkdir(path("folder"), 0o700) == 0)
        for (name, words) in [
            ("link", "a symbolic link"), ("dangling", "a symbolic link"), ("fifo", "a fifo"), ("folder", "a directory"),
        ] {
            #expect(throws: FilesError(.notAFile, "\(path(name)) is \(words), not a regular file: not replaced")) {
                try AtomicFile.write([0], to: path(name))
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("target"))) == Data("kept".utf8))
        #expect(FileManager.default.fileExists(atPath: path("nowhere")) == false)
        #expect(entries() == ["dangling", "fifo", "folder", "link", "target"])
    }

    /// A staged folder replaces the old one whole on commit (none of its files stay), and a
    /// discarded one leaves the old folder as it was.
    @Test func aStagedFolderReplacesWholeOrNotAtAll() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let dump = path("dump")
        let first = try StagedFolder(for: dump)
        try first.write([1], named: "DG3.bin")
        try first.write([2], named: "DG1.bin")
        try first.commit()
        let abandoned = try StagedFolder(for: dump)
        try abandoned.write([9], named: "DG1.bin")
        abandoned.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dump).sorted() == ["DG1.bin", "DG3.bin"])
        let second = try StagedFolder(for: dump)
        try second.write([3], named: "DG1.bin")
        try second.commit()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dump) == ["DG1.bin"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: dump + "/DG1.bin")) == Data([3]))
        #expect(entries() == ["dump"])
    }

    /// A regular file over the cap is refused by its size; an endless device after one byte
    /// past the cap; the kind may be chosen from the first bytes.
    @Test func readsUpToTheCap() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(repeating: 7, count: 100).write(to: URL(fileURLWithPath: path("file")))
        #expect(try CappedFile.read(path("file"), as: CappedFile.Kind("a test file", limit: 100)).count == 100)
        #expect(
            throws: FilesError(.tooLarge, "\(path("file")) holds 100 bytes, more than a test file can be (99 bytes)")
        ) { try CappedFile.read(path("file"), as: CappedFile.Kind("a test file", limit: 99)) }
        #expect(throws: FilesError(.tooLarge, "/dev/zero holds more than a zero can be (1 MiB)")) {
            try CappedFile.read("/dev/zero") { prefix in
                CappedFile.Kind(prefix.allSatisfy { $0 == 0 } ? "a zero" : "other", limit: 1 << 20)
            }
        }
        #expect(throws: FilesError(.cannotRead, "\(folder.path) is a directory, not a file")) {
            try CappedFile.read(folder.path, as: CappedFile.Kind("a test file", limit: 1))
        }
    }

    /// A fifo nothing writes to is refused at once, not waited on for ever (`--tenants`,
    /// `$EMRTD_CSCA_BUNDLE`); one with a writer is read as a file.
    @Test func aFifoWithoutAWriterIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(mkfifo(path("fifo"), 0o600) == 0)
        #expect(throws: FilesError(.cannotRead, "\(path("fifo")) is a fifo that nothing writes to")) {
            try CappedFile.read(path("fifo"), as: CappedFile.Kind("a test file", limit: 100))
        }
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        #expect(write(ends[1], "abc", 3) == 3)
        close(ends[1])
        #expect(
            try CappedFile.read("/dev/fd/\(ends[0])", as: CappedFile.Kind("a test file", limit: 100))
                == Array("abc".utf8))
    }
}
