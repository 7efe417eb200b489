import Foundation
import Glibc
import TestSupport
import Testing

/// What `emrtd` leaves on disk when writing goes wrong or would destroy something: a full disk
/// (a small tmpfs), a symbolic link, a device or a fifo where a file goes, another document's
/// dump, an LDIF file with nothing in it, a list smaller than the bundle, an endless input. In
/// every case the old data is intact.
@Suite struct FileSafetyCLITests {
    static let specimenKey = ["--mrz", "L898902C", "690806", "940623"]
    /// A read of the simulator's specimen, trusting its own CSCA only.
    static let specimenRead = ["read", "--simulator", "--no-builtin"] + specimenKey

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Every file of `folder` by name, to compare a folder before and after.
    static func contents(_ folder: URL) -> [String: Data] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return Dictionary(
            uniqueKeysWithValues: names.map {
                ($0, FileManager.default.contents(atPath: folder.appendingPathComponent($0).path) ?? Data())
            })
    }

    /// A copy of the specimen's dump in `folder` that is another document: its DG1's document
    /// number is L898902CA (the same check digit, so the simulator's BAC key is
    /// `otherDocumentKey`); EF.SOD no longer matches it, which a read reports, not refuses.
    static func otherDocument(_ emrtd: String, in folder: URL) throws -> URL {
        let source = folder.appendingPathComponent("other-source")
        let made = try Subprocess.run(emrtd, specimenRead + ["--out", source.path])
        #expect(made.status == 0, "\(made.combinedOutput)")
        let dataGroup1 = source.appendingPathComponent("DG1.bin")
        let bytes = try Data(contentsOf: dataGroup1)
        let patched = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "L898902C<3", with: "L898902CA3")
        #expect(patched.utf8.count == bytes.count)
        try Data(patched.utf8).write(to: dataGroup1)
        return source
    }
    static let otherDocumentKey = ["--mrz", "L898902CA", "690806", "940623"]

    /// A re-read of the same document replaces its dump; another document's dump is refused
    /// (exit 1, the old dump untouched) unless `--replace`, which leaves none of its files
    /// (its report, its CSCA, its keys); a failed read's files replace no dump; a directory
    /// holding files emrtd did not write is refused even with `--replace`.
    @Test func aDumpReplacesOnlyItsOwnDocumentsUnlessAsked() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let folder = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dump = folder.appendingPathComponent("dump")
        #expect(try Subprocess.run(emrtd, Self.specimenRead + ["--out", dump.path]).status == 0)
        #expect(try Subprocess.run(emrtd, Self.specimenRead + ["--out", dump.path]).status == 0, "a re-read")
        #expect(try Subprocess.run(emrtd, ["report", dump.path, "--no-builtin"]).status == 0)
        let before = Self.contents(dump)
        #expect(before["report.html"] != nil && before["CSCA.der"] != nil)

        let other = try Self.otherDocument(emrtd, in: folder)
        let otherRead = ["read", "--simulator", other.path, "--no-builtin"] + Self.otherDocumentKey
        let refused = try Subprocess.run(emrtd, otherRead + ["--out", dump.path])
        #expect(refused.status == 1, "\(refused.combinedOutput)")
        #expect(
            refused.errorOutput.contains(
                "holds the dump of another document (UTO L898902C, this one is UTO L898902CA), not replaced: "
                    + "--replace replaces it"), "\(refused.errorOutput)")
        #expect(Self.contents(dump) == before)

        let replaced = try Subprocess.run(emrtd, otherRead + ["--out", dump.path, "--replace"])
        #expect(replaced.status == 0, "\(replaced.combinedOutput)")
        let after = Self.contents(dump)
        #expect(after["DG1.bin"] == Self.contents(other)["DG1.bin"])
        for stale in ["report.html", "CSCA.der", "chip-keys.der"] { #expect(after[stale] == nil, "\(stale) left") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["dump", "other-source"])

        // A read that fails midway (this dump has no chip-keys.der, so its simulated chip has
        // fresh keys and Chip Authentication ends the session after DG14) replaces no dump.
        let failed = try Subprocess.run(
            emrtd, ["read", "--simulator", dump.path, "--no-builtin"] + Self.otherDocumentKey + ["--out", dump.path])
        #expect(failed.status == 1, "\(failed.combinedOutput)")
        #expect(
            failed.errorOutput.contains(
                "the files read before the failure were not written: \(dump.path) holds a dump already, kept as it was"),
            "\(failed.errorOutput)")
        #expect(Self.contents(dump) == after)

        let notes = folder.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: notes.appendingPathComponent("notes.txt"))
        let foreign = try Subprocess.run(emrtd, Self.specimenRead + ["--out", notes.path, "--replace"])
        #expect(foreign.status == 1)
        #expect(foreign.errorOutput.contains("holds files emrtd did not write (notes.txt): not replaced"))
        #expect(Self.contents(notes) == ["notes.txt": Data("mine".utf8)])
    }

    /// A symbolic link, a device and a fifo where `--out`, `--report`, `report --report`,
    /// `masterlist import --out`, `parse --images` or `simulate --csca-out` writes are refused
    /// with one line, exit 1, and stay what they were; so is a regular file where a dump's
    /// directory goes.
    @Test func aLinkADeviceOrAFifoIsNeverReplaced() throws {
        guard let emrtd = CLITests.emrtd(), let lists = Prerequisites.shared("data/gmrtd/master_list") else { return }
        let folder = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dump = folder.appendingPathComponent("dump").path
        #expect(try Subprocess.run(emrtd, Self.specimenRead + ["--out", dump]).status == 0)
        let target = folder.appendingPathComponent("target")
        try Data("kept".utf8).write(to: target)
        let link = folder.appendingPathComponent("link").path
        #expect(symlink(target.path, link) == 0)
        let fifo = folder.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // As root a device node of our own (the null device's numbers, 1:3, as glibc's makedev
        // packs them); otherwise /dev/null itself, which an unprivileged user cannot replace anyway.
        var device = "/dev/null"
        if getuid() == 0 {
            device = folder.appendingPathComponent("null").path
            #expect(mknod(device, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0)
        }
        let kinds = [link: ("a symbolic link", S_IFLNK), fifo: ("a fifo", S_IFIFO), device: ("a device", S_IFCHR)]
        let list = lists.appendingPathComponent("NL_ML_2026-07-22.ml").path
        let root = lists.appendingPathComponent("NL_ROOT_CA.cer").path
        for (path, (words, type)) in kinds {
            for command in [
                Self.specimenRead + ["--report", path], ["report", dump, "--no-builtin", "--report", path],
                ["masterlist", "import", list, "--ml-root", root, "--out", path],
            ] {
                let result = try Subprocess.run(emrtd, command)
                #expect(result.status == 1, "\(command): \(result.combinedOutput)")
                #expect(result.errorOutput.hasSuffix("\(path) is \(words), not a regular file: not replaced\n"))
                // One line, before anything is read: the read refuses before it opens the chip.
                #expect(result.errorOutput.split(separator: "\n").count == 1, "\(result.errorOutput)")
                var status = stat()
                #expect(lstat(path, &status) == 0 && status.st_mode & S_IFMT == type, "\(path) was replaced")
            }
        }
        // parse's images and simulate's CSCA go through the same writer.
        let images = folder.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        let face = images.appendingPathComponent("dg2-1.jpg").path
        #expect(symlink(target.path, face) == 0)
        let parsed = try Subprocess.run(emrtd, ["parse", dump + "/DG2.bin", "--images", images.path])
        #expect(
            parsed.status == 1
                && parsed.errorOutput.hasSuffix("\(face) is a symbolic link, not a regular file: not replaced\n"))
        let simulated = try Subprocess.run(emrtd, ["simulate", "--csca-out", link, "--port", "1"])
        #expect(simulated.status == 1 && simulated.errorOutput.contains("\(link) is a symbolic link"))
        let dumpAtLink = try Subprocess.run(emrtd, Self.specimenRead + ["--out", link])
        #expect(dumpAtLink.status == 1 && dumpAtLink.errorOutput.contains("is a symbolic link, not a directory"))
        let dumpAtFile = try Subprocess.run(emrtd, Self.specimenRead + ["--out", target.path])
        #expect(dumpAtFile.status == 1 && dumpAtFile.errorOutput.contains("is a regular file, not a directory"))
        #expect(try Data(contentsOf: target) == Data("kept".utf8))
    }

    /// An LDIF file with no entry, or whose every entry is unreadable, is nothing to import
    /// (exit 3, checked or imported), and the bundle keeps its certificates; a list smaller
    /// than the bundle replaces it only with `--replace`.
    @Test func anImportNeverEmptiesOrShrinksTheBundleUnasked() throws {
        guard let emrtd = CLITests.emrtd(), let lists = Prerequisites.shared("data/gmrtd/master_list") else { return }
        let folder = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("csca.pem")
        let german = [
            lists.appendingPathComponent("DE_ML_2026-05-28-08-28-45.ml").path, "--ml-root",
            lists.appendingPathComponent("DE_ROOT_CA_CSCA07.cer").path,
        ]
        let dutch = [
            lists.appendingPathComponent("NL_ML_2026-07-22.ml").path, "--ml-root",
            lists.appendingPathComponent("NL_ROOT_CA.cer").path,
        ]
        let imported = try Subprocess.run(emrtd, ["masterlist", "import"] + german + ["--out", bundle.path])
        #expect(imported.status == 0 && imported.errorOutput.contains("588 in "), "\(imported.combinedOutput)")
        let full = try Data(contentsOf: bundle)

        let empty = folder.appendingPathComponent("empty.ldif")
        try Data("version: 1\n".utf8).write(to: empty)
        let unreadable = folder.appendingPathComponent("unreadable.ldif")
        try Data("dn: cn=x,o=dsc\nuserCertificate;binary:: AAAA\n\n".utf8).write(to: unreadable)
        for file in [empty.path, unreadable.path] {
            for command in [["masterlist", file], ["masterlist", "import", file, "--out", bundle.path]] {
                let result = try Subprocess.run(emrtd, command)
                #expect(result.status == 3, "\(command): \(result.combinedOutput)")
                #expect(result.errorOutput.contains("nothing to import: \(file) holds no readable certificate or CRL"))
            }
        }
        #expect(try Data(contentsOf: bundle) == full)

        let smaller = try Subprocess.run(emrtd, ["masterlist", "import"] + dutch + ["--out", bundle.path])
        #expect(smaller.status == 3, "\(smaller.combinedOutput)")
        #expect(smaller.errorOutput.contains("holds 588 certificates, the import would leave 411, nothing written"))
        #expect(try Data(contentsOf: bundle) == full)
        let appended = try Subprocess.run(
            emrtd, ["masterlist", "import"] + dutch + ["--out", bundle.path, "--append"])
        #expect(appended.status == 0, "\(appended.combinedOutput)")
        let replaced = try Subprocess.run(
            emrtd, ["masterlist", "import"] + dutch + ["--out", bundle.path, "--replace"])
        #expect(
            replaced.status == 0 && replaced.errorOutput.contains(" dropped, 411 in "), "\(replaced.combinedOutput)")
    }

    /// An endless input is refused at its kind's cap, not read to the end: /dev/zero as a master
    /// list (peak memory far below the gigabyte it once took), as an LDS file, on standard input.
    @Test func anEndlessInputIsRefusedAtItsCap() throws {
        guard let emrtd = CLITests.emrtd(), let time = Prerequisites.tool("time", package: "time") else { return }
        let list = try Subprocess.run(time, ["-f", "peak %M KB", emrtd, "masterlist", "/dev/zero"])
        #expect(list.status == 1)
        #expect(
            list.errorOutput.contains("emrtd masterlist: /dev/zero holds more than a master list can be (64 MiB)\n"))
        let peak = list.errorOutput.split(separator: "\n").last { $0.hasPrefix("peak ") }
        let kilobytes = peak.flatMap { Int($0.split(separator: " ")[1]) } ?? .max
        #expect(kilobytes < 256 * 1024, "\(list.errorOutput)")
        let parsed = try Subprocess.run(emrtd, ["parse", "/dev/zero"])
        #expect(parsed.status == 1 && parsed.errorOutput.contains("holds more than an LDS file can be (16 MiB)"))
        let mrz = try Subprocess.run("/bin/sh", ["-c", "exec \"$0\" mrz < /dev/zero", emrtd])
        #expect(mrz.status == 1 && mrz.errorOutput.contains("standard input holds more than an MRZ can be"))
    }

    /// A full disk (a 1 MiB tmpfs in a mount namespace of its own, filled up) fails a dump, a
    /// report and a bundle each with a message saying what was kept, and leaves the old ones
    /// intact with no temporary file behind.
    @Test func aFullDiskKeepsTheOldFiles() throws {
        guard let emrtd = CLITests.emrtd(), let lists = Prerequisites.shared("data/gmrtd/master_list"),
            let unshare = Prerequisites.tool("unshare", package: "util-linux")
        else { return }
        guard getuid() == 0 else {
            Prerequisites.unavailable("root (to mount a small tmpfs)")
            return
        }
        let folder = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = """
            mount -t tmpfs -o size=1m tmpfs "$1" || exit 90
            cd "$1"
            "$0" masterlist import "$2" --ml-root "$3" --out csca.pem 2>/dev/null; echo "bundle=$?"
            "$0" read --simulator --no-builtin --mrz L898902C 690806 940623 --out dump >/dev/null 2>&1; echo "dump=$?"
            "$0" report dump --no-builtin 2>/dev/null; echo "report=$?"
            dd if=/dev/zero of=filler bs=4k 2>/dev/null
            echo "before=$(cat csca.pem dump/* | sha256sum)"
            "$0" read --simulator --no-builtin --mrz L898902C 690806 940623 --out dump >/dev/null; echo "dump=$?"
            "$0" report dump --no-builtin; echo "report=$?"
            "$0" masterlist import "$4" --ml-root "$5" --out csca.pem --replace; echo "bundle=$?"
            echo "after=$(cat csca.pem dump/* | sha256sum)"
            echo "entries=$(ls -A . dump | tr '\\n' ' ')"
            """
        let result = try Subprocess.run(
            unshare,
            [
                "--mount", "--propagation", "private", "/bin/sh", "-c", script, emrtd, folder.path,
                lists.appendingPathComponent("NL_ML_2026-07-22.ml").path,
                lists.appendingPathComponent("NL_ROOT_CA.cer").path,
                lists.appendingPathComponent("DE_ML_2026-05-28-08-28-45.ml").path,
                lists.appendingPathComponent("DE_ROOT_CA_CSCA07.cer").path,
            ])
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(3)) == ["bundle=0", "dump=0", "report=0"], "\(result.combinedOutput)")
        #expect(Array(lines.dropFirst(4).prefix(3)) == ["dump=1", "report=1", "bundle=1"], "\(result.combinedOutput)")
        let before = lines.first { $0.hasPrefix("before=") }?.dropFirst(7)
        #expect(before != nil && before == lines.first { $0.hasPrefix("after=") }?.dropFirst(6))
        #expect(
            lines.last == "entries=.: csca.pem dump filler  dump: COM.bin CSCA.der CardAccess.bin "
                + "CardSecurity.bin DG1.bin DG11.bin DG12.bin DG14.bin DG15.bin DG2.bin SOD.bin chip-keys.der "
                + "evidence.json face-1.jpg report.html ", "a temporary file was left")
        let messages = result.errorOutput.split(separator: "\n").filter { $0.contains("cannot write") }
        #expect(messages.count == 3, "\(result.errorOutput)")
        #expect(messages.first?.hasSuffix(": No space left on device; dump was left as it was") == true)
        #expect(messages.dropFirst().allSatisfy { $0.hasSuffix(": No space left on device; the old file was kept") })
    }

    /// `relay --simulator --specimen-out OUT` writes as `read --out` does: the chip's keys 0600,
    /// a link in OUT (or OUT a link) not followed, a fifo at OUT refused at once, not waited on.
    @Test func aSpecimenIsWrittenWithoutFollowingLinks() throws {
        guard let emrtd = CLITests.emrtd() else { return }
        let folder = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let victim = folder.appendingPathComponent("victim")
        try Data("keep".utf8).write(to: victim)
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: out.appendingPathComponent("chip-keys.der").path, withDestinationPath: victim.path)
        let written = try Subprocess.run(emrtd, ["relay", "--simulator", "--specimen-out", out.path])
        #expect(written.status == 0, "\(written.combinedOutput)")
        #expect(FileManager.default.contents(atPath: victim.path) == Data("keep".utf8))
        var status = stat()
        #expect(lstat(out.appendingPathComponent("chip-keys.der").path, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFREG && status.st_mode & 0o777 == 0o600)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("csca.pem").path))

        let linked = folder.appendingPathComponent("linked")
        try FileManager.default.createSymbolicLink(atPath: linked.path, withDestinationPath: out.path)
        let throughLink = try Subprocess.run(emrtd, ["relay", "--simulator", "--specimen-out", linked.path])
        #expect(throughLink.status == 1, "\(throughLink.combinedOutput)")
        #expect(throughLink.errorOutput.contains("symbolic link"), "\(throughLink.errorOutput)")

        let fifo = folder.appendingPathComponent("fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let intoFifo = try Subprocess.run(emrtd, ["relay", "--simulator", "--specimen-out", fifo.path])
        #expect(intoFifo.status == 1, "\(intoFifo.combinedOutput)")
    }
}
