import ChipSimulator

/// The chip options `emrtd simulate` and `emrtd read --simulator` share: the PACE protocols the
/// simulated chip offers, whether it still runs BAC, and its CAN. Without them the chip offers
/// what most documents issued today do: PACE with ECDH Generic Mapping and AES-128 on
/// brainpoolP256r1, and BAC beside it.
struct SimulatedChipOptions {
    /// The offer of a chip given no `--pace`.
    static let defaultOffer = "ECDH-GM-AES-128:13"

    var paceOffers: [PACEOffer] = []
    var paceOnly = false
    var can: CardAccessNumber?
    /// Whether the command line gave any of these options (the default offer is not one).
    var isGiven = false

    /// The usage lines of these options.
    static let usage = """
        --pace NAME[:PARAM] (repeatable) makes the chip offer PACE, listed in its EF.CardAccess:
        NAME is KEYAGREEMENT-MAPPING-CIPHER (ECDH or DH; GM, IM or CAM; 3DES, AES-128, AES-192
        or AES-256), PARAM the standardized domain parameter ID or curve name (default 13,
        brainpoolP256r1, for ECDH and 0, the 1024-bit MODP group, for DH), e.g. ECDH-GM-AES-128:13,
        DH-IM-3DES:0, ECDH-CAM-AES-128:secp256r1 (CAM gets a fresh Chip Authentication key).
        Without --pace the chip offers \(defaultOffer) and BAC; --no-pace makes it a BAC-only chip.
        --pace-only makes the chip refuse BAC; --chip-can CAN gives it a card access number (PACE's
        second password; the MRZ password always comes from DG1).
        """

    /// Takes the options out of `arguments`.
    static func read(_ arguments: inout ArgumentReader) throws -> SimulatedChipOptions {
        var options = SimulatedChipOptions()
        do {
            options.paceOffers = try arguments.options("--pace").map { name throws(ChipSimulatorError) in
                try PACEOffer(named: name)
            }
        } catch let error as ChipSimulatorError {
            throw UsageError(error.reason)
        }
        let noPACE = arguments.flag("--no-pace")
        guard !noPACE || options.paceOffers.isEmpty else { throw UsageError("--no-pace and --pace exclude each other") }
        options.isGiven = noPACE || !options.paceOffers.isEmpty
        if options.paceOffers.isEmpty && !noPACE {
            options.paceOffers = [try PACEOffer(named: defaultOffer)]
        }
        options.paceOnly = arguments.flag("--pace-only")
        guard !options.paceOnly || !noPACE else { throw UsageError("--pace-only and --no-pace exclude each other") }
        if let can = try arguments.option("--chip-can") {
            guard let number = CardAccessNumber(can) else { throw UsageError("--chip-can takes 1 to 16 digits") }
            options.can = number
        }
        options.isGiven = options.isGiven || options.paceOnly || options.can != nil
        return options
    }

    /// The chip's configuration for `files` with these options.
    func configuration(files: ChipFiles, supportsExtendedLength: Bool = true) throws -> ChipConfiguration {
        var configuration = ChipConfiguration(files: files, supportsExtendedLength: supportsExtendedLength)
        configuration.credentials.can = can
        do {
            try configuration.offerPACE(paceOffers, only: paceOnly)
        } catch {
            throw CommandFailure(error.reason)
        }
        return configuration
    }
}
