import ASN1
import CVCertificates
import ChipSimulator
import Foundation

/// The chip options `emrtd simulate` and `emrtd read --simulator` share: the PACE protocols the
/// simulated chip offers, whether it still runs BAC, its CAN, its Chip Authentication and Active
/// Authentication keys, how DG14 describes them, and faults that make it fail to prove itself
/// genuine or show a real chip's quirk. Without them the chip is the specimen's: PACE-CAM (ECDH-CAM-AES-128 on
/// brainpoolP256r1) beside BAC, Chip Authentication with an ECDH brainpoolP256r1 key (AES-128),
/// and Active Authentication with RSA-2048 and the SHA-256 trailer.
struct SimulatedChipOptions {
    /// The offer of a chip given no `--pace`.
    static let defaultOffer = "ECDH-CAM-AES-128:13"
    /// The Chip Authentication key of a chip given no `--chip-authentication`.
    static let defaultChipAuthentication = "ECDH-AES-128:13"
    /// The card access number of a chip given no `--chip-can`.
    static let defaultCAN = Specimen.cardAccessNumber

    var paceOffers: [PACEOffer] = []
    var paceOnly = false
    var paceNonceLength = PACENonceLength.oneBlock
    var can = CardAccessNumber(defaultCAN)
    /// `--chip-authentication` names; nil: the default key, empty: none.
    var chipAuthentication: [String]? = nil
    /// `--active-authentication`; nil: the specimen's RSA-2048 key, "": none.
    var activeAuthentication: String? = nil
    var layout = SecurityInfoLayout()
    var faults: [ChipFault] = []
    /// `--terminal-trust-point` and `--chip-date`: Terminal Authentication on the chip.
    var terminalAuthentication: TerminalAuthenticationSetup? = nil
    /// Whether any of these options was given (they mean nothing without a simulated chip).
    var given = false

    /// The usage lines of these options.
    static let usage = """
        --pace NAME[:PARAM] (repeatable) makes the chip offer PACE, listed in its EF.CardAccess:
        NAME is KEYAGREEMENT-MAPPING-CIPHER (ECDH or DH; GM, IM or CAM; 3DES, AES-128, AES-192
        or AES-256), PARAM the standardized domain parameter ID or curve name (default 13,
        brainpoolP256r1, for ECDH and 0, the 1024-bit MODP group, for DH), e.g. ECDH-GM-AES-128:13,
        DH-IM-3DES:0, ECDH-CAM-AES-128:secp256r1 (CAM uses the Chip Authentication key on its
        curve, or a fresh one; a generated specimen then has a signed EF.CardSecurity).
        Without --pace the chip offers \(defaultOffer) and BAC; --no-pace makes it a BAC-only chip.
        --pace-only makes the chip refuse BAC; --chip-can CAN gives it a card access number (PACE's
        second password; default \(defaultCAN); the MRZ password always comes from DG1).
        --pace-nonce block|key: the length of the chip's PACE nonce, one AES block (16 bytes,
        default, as chips in the field draw it) or as long as the key (32 bytes for AES-192/256).
        --chip-authentication NAME[:PARAM] (repeatable) gives the chip a Chip Authentication key,
        NAME KEYAGREEMENT-CIPHER (ECDH-AES-128, DH-3DES…), PARAM as for --pace; several keys get
        key IDs 1, 2, … (default \(defaultChipAuthentication); --no-chip-authentication: none).
        --active-authentication rsa:BITS[:bc|sha1|sha224|sha256|sha384|sha512] or
        ecdsa:PARAM[:HASH][:der] gives it an Active Authentication key (RSA with the ISO/IEC 9796-2
        trailer BC or the explicit trailer of the hash, default sha256; ECDSA signing plain r‖s
        unless der; default rsa:2048:sha256; --no-active-authentication: none).
        --no-chip-authentication-info leaves DG14's ChipAuthenticationInfo out (readers then
        assume 3DES, and so does the default key: ECDH-3DES:13); --explicit-domain-parameters
        writes keys with explicit domain parameters.
        --chip-fault NAME (repeatable) makes the chip fail to prove itself genuine: clone (its
        private keys are not those of DG14, DG15, EF.CardSecurity), wrong-cam-data,
        forged-card-security, aa-other-challenge, ca-keeps-old-keys, ca-wrong-mac; or shows a
        real chip's quirk (Packages/ChipSimulator/FIELD-QUIRKS.md): read-empty-above-160,
        read-6700-above-160, read-past-end-6b00, padded-end-of-file, le-on-case-3-6700,
        cluttered-card-access, ends-session-on-error, pace-requires-parameter-id, select-mf-6a87,
        card-access-6283, bac-6985, aa-6d00, ca-6f00, sod-wrong-mac.
        --terminal-trust-point FILE gives the chip Terminal Authentication (EAC) with that CVCA
        certificate (emrtd cvc make-pki) as its trust point, named by EF.CVCA, and --chip-date
        YYYY-MM-DD as its date (default today): DG3 and DG4 open to an inspection system whose
        chain the chip verifies, as its CHAT grants (`emrtd read --simulator` then generates the rich
        specimen, which has a DG3).
        A generated specimen's DG14, DG15 and EF.CardSecurity are written for these keys; a
        directory's files are served as they are, with fresh keys behind them.
        """

    /// Takes the options out of `arguments`.
    static func read(_ arguments: inout ArgumentReader) throws -> SimulatedChipOptions {
        var options = SimulatedChipOptions()
        do {
            options.paceOffers = try arguments.options("--pace").map { name throws(ChipSimulatorError) in
                try PACEOffer(named: name)
            }
            options.faults = try arguments.options("--chip-fault").map { name throws(ChipSimulatorError) in
                try ChipFault(named: name)
            }
        } catch let error as ChipSimulatorError {
            throw UsageError(error.reason)
        }
        let noPACE = arguments.flag("--no-pace")
        guard !noPACE || options.paceOffers.isEmpty else { throw UsageError("--no-pace and --pace exclude each other") }
        options.given = noPACE || !options.paceOffers.isEmpty || !options.faults.isEmpty
        if options.paceOffers.isEmpty && !noPACE {
            options.paceOffers = [try PACEOffer(named: defaultOffer)]
        }
        options.paceOnly = arguments.flag("--pace-only")
        options.given = options.given || options.paceOnly
        guard !options.paceOnly || !noPACE else { throw UsageError("--pace-only and --no-pace exclude each other") }
        if let length = try arguments.option("--pace-nonce") {
            guard let nonceLength = PACENonceLength(rawValue: length) else {
                throw UsageError("--pace-nonce takes block or key, not \(length)")
            }
            options.paceNonceLength = nonceLength
            options.given = true
        }
        if let can = try arguments.option("--chip-can") {
            guard let number = CardAccessNumber(can) else { throw UsageError("--chip-can takes 1 to 16 digits") }
            options.can = number
            options.given = true
        }
        let chipAuthentication = try arguments.options("--chip-authentication")
        let noChipAuthentication = arguments.flag("--no-chip-authentication")
        guard !noChipAuthentication || chipAuthentication.isEmpty else {
            throw UsageError("--no-chip-authentication and --chip-authentication exclude each other")
        }
        if noChipAuthentication || !chipAuthentication.isEmpty {
            options.chipAuthentication = chipAuthentication
            options.given = true
        }
        let activeAuthentication = try arguments.option("--active-authentication")
        let noActiveAuthentication = arguments.flag("--no-active-authentication")
        guard !noActiveAuthentication || activeAuthentication == nil else {
            throw UsageError("--no-active-authentication and --active-authentication exclude each other")
        }
        if noActiveAuthentication || activeAuthentication != nil {
            options.activeAuthentication = activeAuthentication ?? ""
            options.given = true
        }
        options.layout = SecurityInfoLayout(
            chipAuthenticationInfo: !arguments.flag("--no-chip-authentication-info"),
            explicitDomainParameters: arguments.flag("--explicit-domain-parameters"))
        options.given = options.given || options.layout != SecurityInfoLayout()
        let chipDate = try arguments.option("--chip-date").map { try CVCCommand.parseDate($0, "--chip-date") }
        if let trustPoint = try arguments.option("--terminal-trust-point") {
            guard let date = chipDate ?? CVCDate(UTCDateTime(Date())) else {
                throw UsageError("today is outside 2000-2099: give --chip-date")
            }
            options.terminalAuthentication = TerminalAuthenticationSetup(
                trustPoint: try CVCCommand.load(trustPoint), currentDate: date)
            options.given = true
        } else if chipDate != nil {
            throw UsageError("--chip-date goes with --terminal-trust-point")
        }
        return options
    }

    /// The chip's credentials: the CAN, the PACE offers (with a CAM key where needed) and fresh
    /// Chip Authentication and Active Authentication keys as the options say.
    func credentials() throws -> Credentials {
        do {
            return try makeCredentials()
        } catch {
            throw UsageError(error.reason)
        }
    }

    private func makeCredentials() throws(ChipSimulatorError) -> Credentials {
        // Without ChipAuthenticationInfo readers assume 3DES: the default key runs it then.
        let names =
            chipAuthentication ?? [layout.chipAuthenticationInfo ? Self.defaultChipAuthentication : "ECDH-3DES:13"]
        var keys: [ChipAuthenticationKey] = []
        for (index, name) in names.enumerated() {
            keys.append(
                try ChipAuthenticationKey.generate(named: name, keyIdentifier: names.count > 1 ? index + 1 : nil))
        }
        var credentials = Credentials(
            can: can, activeAuthenticationKey: try activeAuthenticationKey(), chipAuthenticationKeys: keys)
        try credentials.offerPACE(paceOffers)
        return credentials
    }

    private func activeAuthenticationKey() throws(ChipSimulatorError) -> ActiveAuthenticationKey? {
        switch activeAuthentication {
        case nil: try Specimen.standardActiveAuthenticationKey()
        case "": nil
        case let name?: try ActiveAuthenticationKey.generate(named: name)
        }
    }

    /// The chip for `files` with these credentials.
    func configuration(files: ChipFiles, credentials: Credentials, supportsExtendedLength: Bool = true)
        -> ChipConfiguration
    {
        ChipConfiguration(
            files: files, credentials: credentials, offersBasicAccessControl: !paceOnly,
            supportsExtendedLength: supportsExtendedLength, faults: faults, paceNonceLength: paceNonceLength,
            terminalAuthentication: terminalAuthentication)
    }
}
