import ChipSimulator

/// The READ BINARY limits and the face size of the chip `emrtd read --simulator` reads, for
/// trying the reader on a chip without extended length and a large DG2 (what many real chips and
/// readers are): kept apart from `SimulatedChipOptions` (the chip's protocols and passwords).
struct SimulatedChipLimits {
    var shortOnly = false
    var maximumRead: Int?
    var refusal = ExtendedLengthRefusal.wrongLength
    /// DG2's face in bytes (the generated specimen only).
    var faceSize = 0
    /// Whether any of these options was given.
    var given = false

    static let usage = """
        --short-only makes the chip refuse extended-length APDUs (its ATR does not announce them),
        with 6700 or, with --extended-refusal 6988, by ending secure messaging; --max-read N caps
        the bytes one READ BINARY returns; --face-size BYTES pads the specimen's DG2 face to about
        BYTES (up to 1048576; issued faces are 15-100 KB).
        """

    /// What one READ BINARY can answer: 1 byte to an extended Le's 65536.
    static let maximumReads = 1...65536

    static func read(_ arguments: inout ArgumentReader) throws -> SimulatedChipLimits {
        var limits = SimulatedChipLimits()
        limits.shortOnly = arguments.flag("--short-only")
        limits.maximumRead = try arguments.integer("--max-read", in: maximumReads, unit: "bytes")
        if let refusal = try arguments.option("--extended-refusal") {
            switch refusal {
            case "6700": limits.refusal = .wrongLength
            case "6988": limits.refusal = .endsSecureMessaging
            default: throw UsageError("--extended-refusal takes 6700 or 6988")
            }
            guard limits.shortOnly else { throw UsageError("--extended-refusal describes a --short-only chip") }
        }
        if let size = try arguments.integer("--face-size", in: 0...Specimen.maximumFaceSize, unit: "bytes") {
            limits.faceSize = size
        }
        limits.given = limits.shortOnly || limits.maximumRead != nil || limits.faceSize > 0
        return limits
    }

    func apply(to configuration: inout ChipConfiguration) {
        configuration.supportsExtendedLength = !shortOnly
        configuration.extendedLengthRefusal = refusal
        if let maximumRead { configuration.maximumReadLength = maximumRead }
    }
}
