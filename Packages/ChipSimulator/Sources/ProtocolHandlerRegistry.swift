import Transport

/// The chip's protocol handlers, found by instruction byte. Each keeps its own state here between
/// commands; the first handler registered for an instruction answers it.
struct ProtocolHandlerRegistry: Sendable {
    private var handlers: [any ProtocolHandler]
    private var indexByInstruction: [UInt8: Int] = [:]

    init(_ handlers: [any ProtocolHandler]) {
        self.handlers = handlers
        for (index, handler) in handlers.enumerated() {
            for instruction in handler.instructions where indexByInstruction[instruction] == nil {
                indexByInstruction[instruction] = index
            }
        }
    }

    /// The handlers a chip with this configuration has: BAC (unless the chip is PACE-only) with
    /// the MRZ password of its credentials (or of DG1); Chip Authentication with its keys, taking
    /// MSE and GENERAL AUTHENTICATE and handing PACE's to PACE when it offers any; Active
    /// Authentication when it has that key. A clone (`clonedKeys`) holds fresh private keys.
    static func standard(for configuration: ChipConfiguration) -> [any ProtocolHandler] {
        let faults = FaultInjector(faults: configuration.faults)
        let credentials =
            configuration.faults.contains(.clonedKeys) ? configuration.credentials.cloned() : configuration.credentials
        let mrz = credentials.mrzPassword(orFrom: configuration.files)
        var handlers: [any ProtocolHandler] = []
        if configuration.offersBasicAccessControl {
            handlers.append(BasicAccessControlHandler(password: mrz))
        }
        let pace =
            credentials.paceOffers.isEmpty
            ? nil
            : PACEHandler(
                offers: credentials.paceOffers, mrz: mrz, can: credentials.can,
                chipAuthenticationKeys: credentials.chipAuthenticationKeys.map(\.keyPair), faults: faults.paceFaults,
                nonceLength: configuration.paceNonceLength)
        if pace != nil || !credentials.chipAuthenticationKeys.isEmpty {
            // ID_PICC after BAC: the document number and its check digit, the key seed's start.
            let terminalAuthentication = configuration.terminalAuthentication.flatMap { setup in
                mrz.map { password in
                    TerminalAuthenticationState(
                        setup: setup,
                        documentNumber: password.keySeedInput.withUnsafeBytes { Array($0.dropLast(14)) })
                }
            }
            handlers.append(
                ChipAuthenticationHandler(
                    keys: credentials.chipAuthenticationKeys, pace: pace, faults: faults.chipAuthenticationFaults,
                    terminalAuthentication: terminalAuthentication))
        }
        if let key = credentials.activeAuthenticationKey {
            handlers.append(
                ActiveAuthenticationHandler(
                    key: key,
                    signsOtherChallenge: configuration.faults.contains(.activeAuthenticationOverOtherChallenge)))
        }
        return handlers
    }

    /// Whether some handler answers `instruction`.
    func handles(_ instruction: UInt8) -> Bool { indexByInstruction[instruction] != nil }

    /// Whether the handler of `instruction` reads the chaining bit itself.
    func interpretsChaining(_ instruction: UInt8) -> Bool {
        indexByInstruction[instruction].map { handlers[$0].interpretsChaining } ?? false
    }

    /// The answer of the handler that claims the command, else of the one registered first for its
    /// instruction; nil when there is none.
    mutating func handle(_ command: CommandAPDU, context: ProtocolContext) -> ProtocolOutcome? {
        let claiming = handlers.firstIndex {
            $0.claims(command, context: context) && $0.instructions.contains(command.ins)
        }
        guard let index = claiming ?? indexByInstruction[command.ins] else { return nil }
        return handlers[index].handle(command, context: context)
    }

    /// Every handler forgets its run in progress.
    mutating func reset() {
        for index in handlers.indices { handlers[index].reset() }
    }
}
