import ChipSimulator

/// The chip options `emrtd simulate` and `emrtd read --simulator` share: the PACE protocols the
/// simulated chip offers, whether it still runs BAC, and its CAN. Without them the chip is the
/// BAC-only chip it always was.
struct SimulatedChipOptions {
    var paceOffers: [PACEOffer] = []
    var paceOnly = false
    var can: CardAccessNumber?

    /// The usage lines of these options.
    static let usage = """
        --pace NAME[:PARAM] (repeatable) makes the chip offer PACE, listed in its EF.CardAccess:
        NAME is KEYAGREEMENT-MAPPING-CIPHER (ECDH or DH; GM, IM or CAM; 3DES, AES-128, AES-192
        or AES-256), PARAM the standardized domain parameter ID or curve name (default 13,
        brainpoolP256r1, for ECDH and 0, the 1024-bit MODP group, for DH), e.g. ECDH-GM-AES-128:13,
        DH-IM-3DES:0, ECDH-CAM-AES-128:secp256r1 (CAM gets a fresh Chip Authentication key).
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
        options.paceOnly = arguments.flag("--pace-only")
        guard !options.paceOnly || !options.paceOffers.isEmpty else {
            throw UsageError("--pace-only needs at least one --pace offer")
        }
        if let can = try arguments.option("--chip-can") {
            guard let number = CardAccessNumber(can) else { throw UsageError("--chip-can takes 1 to 16 digits") }
            options.can = number
        }
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
