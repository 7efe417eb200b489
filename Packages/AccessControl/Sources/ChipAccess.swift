import ICAO
import LDS
import MRZ
import Secrets
import SecureMessaging
import Transport

/// A chip opened by access control: which protocol opened it, the channel it set up, and the file
/// reader over that channel. The read (`Emrtd`) takes it as it is.
///
/// Nothing after this point depends on which protocol ran, except Chip Authentication, which
/// replaces the secure channel's session in place (`SecureChannel.replaceSession`): the file
/// reader keeps its channel and the Le it learned.
public struct OpenedChip: Sendable {
    public let access: EstablishedAccess
    /// The secure channel over the card link, which the chip protocols run over and Chip
    /// Authentication re-keys; its `failure` tells why a session broke. Nil for a chip opened
    /// without access control (`unprotected`): the chip protocols are then not run.
    public let secureChannel: SecureChannel?
    /// EF.CardAccess as read from the MF before access control, nil when the chip has none.
    public let cardAccess: [UInt8]?
    /// EF.CardSecurity, read from the MF under secure messaging after PACE-CAM (its signed
    /// Chip Authentication key checks PACE-CAM's proof); nil otherwise or when the chip has none.
    public var cardSecurity: [UInt8]?
    /// What the caller should know that did not stop the access (e.g. BAC used although
    /// EF.CardAccess offers PACE, a printed check digit that does not match its field).
    public internal(set) var warnings: [String]
    /// Reads the eMRTD application's files over the channel; its Le ladder lasts the session.
    public var fileReader: FileReader

    /// A chip under secure messaging with `session`'s keys over `link`.
    public init(
        access: EstablishedAccess, session: SecureMessagingSession, link: any APDUTransport, cardAccess: [UInt8]?,
        warnings: [String] = [], observer: (any PlainAPDUObserver)? = nil
    ) {
        let channel = SecureChannel(base: link, session: session, observer: observer)
        self.access = access
        secureChannel = channel
        self.cardAccess = cardAccess
        self.warnings = warnings
        fileReader = FileReader(channel: channel)
    }

    /// A chip whose files are read in plain (one that enforces no access control), claiming
    /// `access` for the report.
    public init(unprotected link: any APDUTransport, access: EstablishedAccess, warnings: [String] = []) {
        self.access = access
        secureChannel = nil
        cardAccess = nil
        self.warnings = warnings
        fileReader = FileReader(channel: PlainChannel(link))
    }
}

/// The chip access procedure (ICAO 9303-11 §4.2): EF.CardAccess from the master file decides
/// whether PACE is offered; each offer is tried in order (`preferences`) until one establishes
/// PACE. Without PACE (or when every offer fails before mutual authentication, and `preferences`
/// allow it) the eMRTD application is selected in plain and BAC runs.
public enum ChipAccess {
    /// Opens the chip on `link` with `accessKey`. Nonces and ephemeral keys come from `random`;
    /// every step goes to `log` (never a secret); `observer` sees every plain command and answer
    /// of the secure channel from its first command (the debug log).
    ///
    /// - Throws: `AccessControlError`; a wrong password is `.accessDenied` with the protocol that
    ///   found it (PACE's mutual authentication answering 6300, or BAC); a CAN on a document without
    ///   PACE, or PACE failing where BAC is not allowed, is `.notSupported` (or the last offer's error).
    ///
    /// A key from a printed zone with a wrong check digit (`AccessPassword.wrongPrintedCheckDigits`)
    /// opens the chip with the printed digit and the session's warnings say so; a key from fields
    /// that the chip refuses gets a reason saying that the printed check digits may differ.
    public static func open(
        _ link: any APDUTransport, accessKey: AccessPassword,
        preferences: ChipAccessPreferences = ChipAccessPreferences(),
        random: RandomSource = .system, observer: (any PlainAPDUObserver)? = nil,
        log: @Sendable (String) -> Void = { _ in }
    ) throws(AccessControlError) -> OpenedChip {
        do throws(AccessControlError) {
            var session = try openChip(
                link, accessKey: accessKey, preferences: preferences, random: random, observer: observer, log: log)
            session.warnings += accessKey.wrongPrintedCheckDigits.map {
                "the MRZ's printed check digit of the \($0.rawValue) does not match its field; the chip was opened "
                    + "with the printed one, as the document was issued"
            }
            return session
        } catch  where error.code == .accessDenied && accessKey.kind == .mrz && !accessKey.usesPrintedCheckDigits {
            throw AccessControlError(
                error.code, error.accessProtocol,
                error.reason + "; the key used check digits computed from the document number and dates: if the "
                    + "printed MRZ shows other check digits (some documents are issued so), give the printed zone "
                    + "(--mrz-lines; AccessPassword.printed(in:)), whose check digits the chip's key uses",
                statusWord: error.statusWord, transportError: error.transportError)
        }
    }

    private static func openChip(
        _ link: any APDUTransport, accessKey: AccessPassword, preferences: ChipAccessPreferences, random: RandomSource,
        observer: (any PlainAPDUObserver)?, log: @Sendable (String) -> Void
    ) throws(AccessControlError) -> OpenedChip {
        selectMasterFile(link)
        let cardAccess = try readCardAccess(link)
        var warnings: [String] = []
        var failures: [AccessControlError] = []
        if let cardAccess {
            let infos = securityInfos(in: cardAccess, log: log)
            let offers = infos.map { PACEOffer.offers(in: $0, preferences: preferences) } ?? []
            let listed = offers.isEmpty ? "none" : offers.map(\.description).joined(separator: "; ")
            log("EF.CardAccess: \(cardAccess.count) bytes; PACE offers to try, in order: \(listed)")
            if let infos,
                let session = try establishPACE(
                    offers, cardAccess: cardAccess, securityInfos: infos, accessKey: accessKey, link: link,
                    random: random, observer: observer, log: log, failures: &failures)
            {
                return session
            }
            if offers.isEmpty {
                warnings.append("EF.CardAccess is present but offers no PACE protocol this reader tries; BAC was used")
            }
        } else {
            log("no EF.CardAccess: the chip offers no PACE")
        }
        if let lastFailure = failures.last {
            guard accessKey.kind == .mrz, preferences.allowsBACFallback else { throw lastFailure }
            let reasons = failures.map(\.reason).joined(separator: "; ")
            warnings.append("PACE failed before mutual authentication (\(reasons)); BAC was used instead")
        }
        guard accessKey.kind == .mrz else {
            throw AccessControlError(
                .notSupported, nil,
                cardAccess == nil
                    ? "the document has no PACE (no EF.CardAccess), and a CAN opens only documents with PACE"
                    : "EF.CardAccess offers no PACE protocol this reader tries, and a CAN works only with PACE")
        }
        guard preferences.allowsBACFallback else {
            throw AccessControlError(
                .notSupported, nil,
                cardAccess == nil
                    ? "the chip offers no PACE and BAC is not allowed"
                    : "no PACE offer could be used and BAC is not allowed")
        }
        let session: SecureMessagingSession
        do throws(AccessControlError) {
            try selectApplication(link)
            session = try BasicAccessControl.establish(accessKey: accessKey, over: link, random: random)
        } catch {
            // A chip that refuses the fallback (PACE only) leaves PACE's failure as the cause;
            // only a rejected password, or the link, is BAC's to report.
            guard let paceFailure = failures.last, error.code != .accessDenied, error.code != .transport else {
                throw error
            }
            throw AccessControlError(
                paceFailure.code, paceFailure.accessProtocol,
                paceFailure.reason + "; BAC, tried instead, failed too: \(error.reason)",
                statusWord: paceFailure.statusWord, transportError: paceFailure.transportError)
        }
        log("BAC established")
        return OpenedChip(
            access: .bac, session: session, link: link, cardAccess: cardAccess, warnings: warnings, observer: observer)
    }

    /// Tries `offers` in order and returns the session of the first that establishes PACE (the
    /// eMRTD application selected under its secure messaging), or nil with `failures` telling why
    /// each failed before mutual authentication. A failure at or after mutual authentication, or of
    /// the link, ends the procedure.
    static func establishPACE(
        _ offers: [PACEOffer], cardAccess: [UInt8], securityInfos: SecurityOptions, accessKey: AccessPassword,
        link: any APDUTransport, random: RandomSource, observer: (any PlainAPDUObserver)?, log: (String) -> Void,
        failures: inout [AccessControlError]
    ) throws(AccessControlError) -> OpenedChip? {
        for offer in offers {
            log("PACE: trying \(offer)")
            do throws(PACEFailure) {
                let established = try PasswordAuthenticatedConnectionEstablishment.run(
                    offer, cardAccess: securityInfos, accessKey: accessKey, over: link, random: random, log: log)
                var session = OpenedChip(
                    access: .pace(established.result), session: established.session, link: link,
                    cardAccess: cardAccess, observer: observer)
                if offer.paceProtocol.mapping == .chipAuthenticationMapping {
                    let cardSecurity = try readCardSecurity(with: &session.fileReader, log: log)
                    session.cardSecurity = cardSecurity
                }
                try selectApplication(over: session.fileReader.channel)
                log("PACE established (\(offer.paceProtocol)); eMRTD application selected under secure messaging")
                return session
            } catch {
                guard error.beforeMutualAuthentication, error.error.code != .transport else { throw error.error }
                log("PACE with \(offer.paceProtocol) failed before mutual authentication: \(error.error.reason)")
                failures.append(error.error)
            }
        }
        return nil
    }

    /// EF.CardAccess's SecurityInfos; a malformed file offers nothing (logged).
    static func securityInfos(in cardAccess: [UInt8], log: (String) -> Void) -> SecurityOptions? {
        do throws(LDSError) {
            return try SecurityOptions(cardAccess, kind: .cardAccess)
        } catch {
            log("EF.CardAccess does not parse (\(error.reason)): no PACE offer")
            return nil
        }
    }

    /// SELECT MF, by identifier 3F00 and, when a chip refuses that form, without data. A chip
    /// refusing both still has the MF current after reset, so failure here is not an error.
    static func selectMasterFile(_ link: any APDUTransport) {
        for command in [
            CommandAPDU(ins: 0xA4, p1: 0x00, p2: 0x0C, data: [0x3F, 0x00]), CommandAPDU(ins: 0xA4, p1: 0x00, p2: 0x0C),
        ] {
            if (try? link.transmit(command))?.statusWord.isSuccess == true { return }
        }
    }

    /// EF.CardAccess, or nil when the chip answers 6A82, 6283 or 6982 (no PACE). SELECT, then the
    /// header: before access control nothing is known of the chip, and a BAC-only chip would
    /// answer a short-identifier read with 6A82 that only a SELECT could confirm.
    static func readCardAccess(_ link: any APDUTransport) throws(AccessControlError) -> [UInt8]? {
        var reader = FileReader(channel: PlainChannel(link), strategy: .selectThenHeader)
        switch reader.read(.cardAccess) {
        case .read(let bytes): return bytes
        case .absent, .denied: return nil
        case .failed(let error):
            switch error.statusWord {
            case .fileNotFound?, .selectedFileInvalidated?, .securityStatusNotSatisfied?: return nil
            default: break
            }
            if let transportError = error.channelError?.transportError {
                throw .transport(transportError, nil, while: "reading EF.CardAccess")
            }
            throw AccessControlError(.protocolViolation, nil, "\(error)", statusWord: error.statusWord)
        }
    }

    /// EF.CardSecurity from the MF (still the current DF after PACE), under PACE's secure
    /// messaging; nil when the chip has none or refuses it (logged). The link failing or secure
    /// messaging breaking ends the access.
    static func readCardSecurity(with reader: inout FileReader, log: (String) -> Void) throws(PACEFailure)
        -> [UInt8]?
    {
        switch reader.read(.cardSecurity) {
        case .read(let bytes):
            log("EF.CardSecurity: \(bytes.count) bytes")
            return bytes
        case .absent, .denied:
            log("EF.CardSecurity is not there for this reader: PACE-CAM is checked against DG14")
            return nil
        case .failed(let error):
            switch error.channelError {
            case .transport(let transportError)?:
                throw PACEFailure(
                    error: .transport(transportError, .pace, while: "reading EF.CardSecurity"),
                    beforeMutualAuthentication: false)
            case .secureMessaging?:
                throw .late(.secureMessaging, "reading EF.CardSecurity: \(error.reason)")
            case nil:
                log("EF.CardSecurity could not be read (\(error.reason)): PACE-CAM is checked against DG14")
                return nil
            }
        }
    }

    /// SELECT the eMRTD application by AID, in plain (before BAC), no answer data asked.
    static func selectApplication(_ link: any APDUTransport) throws(AccessControlError) {
        let answer: ResponseAPDU
        do throws(TransportError) {
            answer = try link.transmit(CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: ApplicationIdentifier.emrtd))
        } catch {
            throw .transport(error, nil, while: "selecting the eMRTD application")
        }
        guard answer.statusWord.isSuccess else {
            throw AccessControlError(
                .notSupported, nil, "the chip has no eMRTD application (SELECT answered \(answer.statusWord))",
                statusWord: answer.statusWord)
        }
    }

    /// SELECT the eMRTD application under the secure messaging PACE started (9303-11 §4.2).
    static func selectApplication(over channel: any CommandChannel) throws(PACEFailure) {
        let answer: ResponseAPDU
        do throws(ChannelError) {
            answer = try channel.send(CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: ApplicationIdentifier.emrtd))
        } catch {
            switch error {
            case .transport(let transportError):
                throw PACEFailure(
                    error: .transport(transportError, .pace, while: "selecting the eMRTD application"),
                    beforeMutualAuthentication: false)
            case .secureMessaging(let failure):
                throw .late(.secureMessaging, "selecting the eMRTD application: \(failure)")
            }
        }
        guard answer.statusWord.isSuccess else {
            throw .late(
                .notSupported, "the chip has no eMRTD application (SELECT answered \(answer.statusWord))",
                statusWord: answer.statusWord)
        }
    }
}
