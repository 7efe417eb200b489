import ASN1
import ICAO
import LDS
import Transport

/// The chip's file system as its operating system serves it: the master file (EF.CardAccess,
/// EF.CardSecurity) and the eMRTD application (EF.COM, EF.SOD, DG1–DG16), SELECT and READ BINARY
/// with the READ BINARY limits of the configuration. It knows nothing of secure messaging: the
/// chip hands it plain commands and says whether access has been granted.
struct ChipFileSystem: Sendable {
    private let files: ChipFiles
    private let enforcesAccessControl: Bool
    private let protectedFiles: Set<UInt16>
    private let maximumReadLength: Int
    private let oversizedRead: OversizedReadAnswer
    private let signalsEndOfFile: Bool

    /// Whether the eMRTD application (rather than the MF) is selected.
    private(set) var inApplication = false
    private(set) var currentFile: UInt16?

    /// The file and offset a READ BINARY addresses (what faults by file look at).
    struct Read: Sendable, Hashable {
        let file: UInt16
        let offset: Int
    }

    /// The configuration's files, EF.CardAccess replaced by the PACE offers when there are any (a
    /// chip's EF.CardAccess lists what it runs; cluttered by the `clutteredCardAccess` fault),
    /// EF.CardSecurity's signature broken by the `forgedCardSecurity` fault, data groups hidden by
    /// `hidesDataGroups`.
    init(configuration: ChipConfiguration) {
        var files = configuration.files
        let cluttered = configuration.faults.contains(.clutteredCardAccess)
        if let cardAccess = configuration.credentials.cardAccessFile(cluttered: cluttered) {
            files.cardAccess = cardAccess
        }
        if configuration.faults.contains(.forgedCardSecurity),
            let forged = files.cardSecurity.flatMap(SecurityObjectWriter.withForgedSignature)
        {
            files.cardSecurity = forged
        }
        for case .hidesDataGroups(let numbers) in configuration.faults {
            Self.hide(numbers, in: &files)
        }
        if let setup = configuration.terminalAuthentication, files.application[ChipFiles.cvcaIdentifier] == nil {
            files.application[ChipFiles.cvcaIdentifier] = setup.cvcaFile
        }
        self.files = files
        enforcesAccessControl = configuration.enforcesAccessControl
        protectedFiles = configuration.protectedFiles
        maximumReadLength = configuration.maximumReadLength
        oversizedRead = configuration.oversizedRead
        signalsEndOfFile = configuration.signalsEndOfFile
    }

    /// Removes the data groups `numbers` and leaves them out of EF.COM's tag list (an EF.COM that
    /// does not parse is left as it is).
    private static func hide(_ numbers: Set<Int>, in files: inout ChipFiles) {
        for number in numbers { files[dataGroup: number] = nil }
        guard let bytes = files.com, let common = try? CommonFile(bytes) else { return }
        files.com = CommonFile.encoded(
            ldsVersion: common.ldsVersion ?? "0108", unicodeVersion: common.unicodeVersion ?? "040000",
            dataGroups: common.dataGroups.filter { !numbers.contains($0.dataGroupNumber ?? 0) })
    }

    /// A power cycle: the MF is selected again, no EF.
    mutating func reset() {
        inApplication = false
        currentFile = nil
    }

    /// The files of the selected directory.
    private var visibleFiles: [UInt16: [UInt8]] { inApplication ? files.application : files.masterFile }

    /// SELECT: the MF (P1 00 with no data or 3F00), the eMRTD application by AID (P1 04), an EF by
    /// FID in the selected directory (P1 00 or 02).
    mutating func select(_ command: CommandAPDU) -> ResponseAPDU {
        switch command.p1 {
        case 0x04:
            guard command.data == ApplicationIdentifier.emrtd else { return ResponseAPDU(statusWord: .fileNotFound) }
            inApplication = true
            currentFile = nil
            return ResponseAPDU(statusWord: .success)
        case 0x00 where command.data.isEmpty || command.data == [0x3F, 0x00]:
            inApplication = false
            currentFile = nil
            return ResponseAPDU(statusWord: .success)
        case 0x00, 0x02:
            guard command.data.count == 2 else { return ResponseAPDU(statusWord: .incorrectData) }
            let identifier = UInt16(command.data[0]) << 8 | UInt16(command.data[1])
            guard visibleFiles[identifier] != nil else { return ResponseAPDU(statusWord: .fileNotFound) }
            currentFile = identifier
            return ResponseAPDU(statusWord: .success)
        default:
            return ResponseAPDU(statusWord: .incorrectParameters)
        }
    }

    /// The file a SELECT names: 3F00 for the MF in both forms (P1 00 with 3F00 or no data), the FID
    /// of an EF (P1 00 or 02); nil for other commands and for a SELECT by AID.
    static func selection(of command: CommandAPDU) -> UInt16? {
        guard command.ins == 0xA4, command.p1 == 0x00 || command.p1 == 0x02 else { return nil }
        if command.p1 == 0x00, command.data.isEmpty { return 0x3F00 }
        guard command.data.count == 2 else { return nil }
        return UInt16(command.data[0]) << 8 | UInt16(command.data[1])
    }

    /// The file (by SFI or the current EF) and offset a READ BINARY addresses, without reading;
    /// nil for other commands and for reads that address nothing.
    func target(of command: CommandAPDU) -> Read? {
        switch command.ins {
        case 0xB0 where command.p1 & 0x80 != 0:
            return file(withShortIdentifier: command.p1 & 0x1F).map { Read(file: $0, offset: Int(command.p2)) }
        case 0xB0:
            return currentFile.map { Read(file: $0, offset: Int(command.p1 & 0x7F) << 8 | Int(command.p2)) }
        case 0xB1:
            let offset = Self.oddOffset(command.data) ?? 0
            return currentFile.map { Read(file: $0, offset: offset) }
        default:
            return nil
        }
    }

    /// READ BINARY: B0 (offset in P1-P2, or an SFI in P1 with the offset in P2) or B1 (offset in
    /// DO'54', answer in DO'53'). `responseBudget` caps the plain answer so that its protected form
    /// fits the Le of the wire; `faults` may refuse an Le (6700 or an empty 9000 above n), a read
    /// past the end (6B00), or pad the end of the file.
    mutating func readBinary(
        _ command: CommandAPDU, responseBudget: Int?, accessGranted: Bool, unlockedFiles: Set<UInt16>,
        faults: FaultInjector
    ) -> ResponseAPDU {
        var identifier = currentFile
        let offset: Int
        if command.ins == 0xB0 {
            if command.p1 & 0x80 != 0 {
                identifier = file(withShortIdentifier: command.p1 & 0x1F)
                guard identifier != nil else { return ResponseAPDU(statusWord: .fileNotFound) }
                currentFile = identifier
                offset = Int(command.p2)
            } else {
                offset = Int(command.p1 & 0x7F) << 8 | Int(command.p2)
            }
        } else {
            // Odd INS: the offset is in DO'54' (up to four bytes); P1-P2 0000 keeps the current EF.
            guard let odd = Self.oddOffset(command.data) else { return ResponseAPDU(statusWord: .incorrectData) }
            offset = odd
        }
        guard let identifier, let contents = visibleFiles[identifier] else {
            return ResponseAPDU(statusWord: .commandNotAllowed)
        }
        if inApplication {
            let locked = enforcesAccessControl && !accessGranted
            if locked || (protectedFiles.contains(identifier) && !unlockedFiles.contains(identifier)) {
                return ResponseAPDU(statusWord: .securityStatusNotSatisfied)
            }
        }
        guard let requested = command.expectedLength else { return ResponseAPDU(statusWord: .wrongLength) }
        if let limit = faults.readLengthLimit, requested > limit { return ResponseAPDU(statusWord: .wrongLength) }
        if let limit = faults.emptyAnswerLimit, requested > limit { return ResponseAPDU(statusWord: .success) }
        var count = requested
        if requested > maximumReadLength {
            switch oversizedRead {
            case .truncate:
                count = maximumReadLength
            case .wrongLength:
                return ResponseAPDU(statusWord: .wrongLength)
            case .exactLength:
                return ResponseAPDU(statusWord: StatusWord(sw1: 0x6C, sw2: UInt8(maximumReadLength & 0xFF)))
            }
        }
        guard offset < contents.count else { return ResponseAPDU(statusWord: .wrongParameters) }
        if let responseBudget { count = min(count, max(responseBudget, 1)) }
        if command.ins == 0xB1 {
            // Ne and the budget count the whole DO'53': its tag and length bytes come off the data.
            count = Self.oddDataLength(within: count)
        }
        if faults.refusesReadPastEnd, offset + count > contents.count {
            return ResponseAPDU(statusWord: .wrongParameters)
        }
        let end = min(offset + count, contents.count)
        var data = Array(contents[offset..<end])
        var status: StatusWord = end - offset < requested && signalsEndOfFile ? .endOfFileReached : .success
        if faults.padsEndOfFile, end == contents.count {
            data += Self.strayPadding
            status = .endOfFileReached
        }
        return ResponseAPDU(data: command.ins == 0xB1 ? DER.tlv(ASN1Tag(0x53), data) : data, statusWord: status)
    }

    /// What `ChipFault.paddedEndOfFile` leaves after a file's last byte.
    static let strayPadding: [UInt8] = [0x00, 0x00, 0x80]

    /// The most data bytes a DO'53' of at most `capacity` bytes holds (tag, 1–3 length bytes).
    static func oddDataLength(within capacity: Int) -> Int {
        let header = { (count: Int) in 1 + (count < 0x80 ? 1 : count < 0x100 ? 2 : 3) }
        var count = capacity - 2
        while count > 1 && count + header(count) > capacity { count -= 1 }
        return max(count, 1)
    }

    /// The application file whose short identifier (the low five bits of its FID) is `shortIdentifier`.
    private func file(withShortIdentifier shortIdentifier: UInt8) -> UInt16? {
        visibleFiles.keys.first { ChipFiles.shortIdentifier(of: $0) == shortIdentifier }
    }

    /// The offset in DO'54' (one to four bytes); nil when the data is anything else.
    private static func oddOffset(_ data: [UInt8]) -> Int? {
        guard let object = try? ASN1Node.parse(data, rules: .ber), object.tag == ASN1Tag(0x54),
            (1...4).contains(object.content.count)
        else { return nil }
        return object.content.reduce(0) { $0 << 8 | Int($1) }
    }
}
