import AccessControl
import CMS
import CVCertificates
import ChipAuthentication
import Foundation
import ICAO
import LDS
import MRZ
import Secrets
import SecureMessaging
import Transport

/// The chip protocols of one read, in the order the read reaches them, and the evidence they
/// leave for the chip verdict (`ChipEvidence`):
///
/// 1. Right after DG14: PACE-CAM's proof is checked (the key from EF.CardSecurity, else from
///    DG14); when it holds, Chip Authentication is not needed. Otherwise Chip Authentication runs
///    with DG14's strongest offer and re-keys the channel, and the next file operation, under the
///    new keys, confirms it (`confirm`); after PACE-CAM only for Terminal Authentication. A Chip Authentication that fails fails the read
///    (`ReadError.chipAuthentication`): the chip may be a clone.
/// 2. After the data groups: Active Authentication, when DG15 holds a key and either the caller
///    gave a challenge or neither Chip Authentication nor PACE-CAM proved the chip.
/// 2b. Before DG3 and DG4: Terminal Authentication v1 when the caller configured a terminal; it
///    binds to Chip Authentication's ephemeral key, so it runs only after Chip Authentication.
///    Its failure is a warning (the chip then keeps DG3 and DG4 closed), never a read failure.
/// 3. After Passive Authentication (`evidence`): a protocol whose key came from DG14 or DG15 counts
///    only if that data group is authenticated; a tampered one makes it `denied`.
struct ChipAuthenticityProcedure {
    /// Where the key that PACE-CAM's proof was checked against came from.
    enum KeySource: Sendable {
        case cardSecurity(CardSecurityVerification.Status)
        /// DG14 or DG15, checked by Passive Authentication.
        case signedDataGroup
    }

    /// How far one protocol got before Passive Authentication's verdict is known.
    enum Progress: Sendable {
        case notOffered
        case notRun(String)
        case denied(String)
        /// The chip's proof held; what it is worth depends on the key's source.
        case proved(KeySource)
        /// Chip Authentication re-keyed the channel; the next answer under the new keys proves it.
        case awaitingConfirmation
    }

    let channel: SecureChannel?
    let access: EstablishedAccess
    let trustStore: TrustStore
    let checkTime: Date
    let recorder: DebugRecorder
    let terminal: TerminalConfiguration?
    var chipAuthenticationMapping = Progress.notOffered
    var chipAuthentication = Progress.notOffered
    var activeAuthentication = Progress.notOffered
    var activeAuthenticationResponse: [UInt8]?
    /// What Chip Authentication agreed: Terminal Authentication signs its ephemeral key.
    var chipAuthenticationOutcome: ChipAuthenticationV1.Outcome?
    var terminalAuthenticationStatus: TerminalAuthenticationStatus
    var warnings: [String] = []
    /// DG14 or DG15 asked for and not delivered, with how the chip answered: whether that
    /// withholds a key the issuer signed for is known once EF.SOD's hashes are (`judge`).
    var undeliveredKeyFiles: [(number: Int, answer: String)] = []
    /// The transcripts a back end can check again (`AcquisitionEvidence`).
    var chipAuthenticationMappingProof: AcquisitionEvidence.ChipAuthenticationMappingProof?
    var activeAuthenticationProof: AcquisitionEvidence.ActiveAuthenticationProof?

    init(
        channel: SecureChannel?, access: EstablishedAccess, trustStore: TrustStore, checkTime: Date,
        recorder: DebugRecorder, terminal: TerminalConfiguration? = nil
    ) {
        self.channel = channel
        self.access = access
        self.trustStore = trustStore
        self.checkTime = checkTime
        self.recorder = recorder
        self.terminal = terminal
        terminalAuthenticationStatus =
            terminal == nil
            ? .notConfigured
            : TerminalAuthenticationStatus(
                .notRun, "the read did not reach DG3 or DG4 (neither EF.COM nor EF.SOD lists them)")
    }

    var isAwaitingConfirmation: Bool {
        if case .awaitingConfirmation = chipAuthentication { true } else { false }
    }

    /// Notes a DG14 or DG15 the chip did not deliver (`answer`: how it answered instead).
    mutating func keyFileNotDelivered(_ kind: LDSFileKind, answer: String) {
        guard let number = kind.dataGroupNumber, number == 14 || number == 15 else { return }
        undeliveredKeyFiles.append((number, answer))
    }

    // MARK: After DG14

    /// PACE-CAM's check, then Chip Authentication when nothing proved the chip yet.
    mutating func afterDataGroup14(_ securityInfos: SecurityOptions?, cardSecurity: [UInt8]?) throws(ReadError) {
        checkChipAuthenticationMapping(dataGroup14: securityInfos, cardSecurity: cardSecurity)
        guard let securityInfos else { return }
        let (offers, offerWarnings) = ChipAuthenticationOffer.offers(in: securityInfos)
        warnings += offerWarnings
        guard !offers.isEmpty else {
            if !securityInfos.chipAuthenticationPublicKeyInfos.isEmpty {
                chipAuthentication = .notRun("DG14 offers no Chip Authentication this reader can run")
            }
            return
        }
        // With a terminal configured it runs all the same: Terminal Authentication v1 binds to its key.
        if case .proved = chipAuthenticationMapping, terminal == nil {
            chipAuthentication = .notRun("PACE-CAM already proved the chip, so Chip Authentication was not needed")
            return
        }
        guard let channel else {
            chipAuthentication = .notRun("the chip was opened without a secure channel to run Chip Authentication on")
            return
        }
        let recorder = self.recorder
        var unusable: [String] = []
        var refusals: [String] = []
        for offer in offers {
            recorder.note("chip authentication started: \(offer)")
            do throws(ChipAuthenticationError) {
                chipAuthenticationOutcome = try ChipAuthenticationV1.run(offer, over: channel) { recorder.note($0) }
                chipAuthentication = .awaitingConfirmation
                return
            } catch {
                switch error.code {
                case .unusableKey:
                    warnings.append("Chip Authentication with \(offer) was not run: \(error.reason)")
                    unusable.append(error.reason)
                    continue
                case .refused where channel.failure == nil:
                    // Secure messaging is intact under the old keys: the next offer may suit the chip.
                    recorder.note("chip authentication: \(error.reason)")
                    refusals.append(error.reason)
                    continue
                default:
                    if let transportError = error.transportError {
                        throw ReadError(transport: transportError, during: "Chip Authentication")
                    }
                    throw ReadError(
                        .chipAuthentication, "Chip Authentication failed (the chip may be a clone): \(error.reason)")
                }
            }
        }
        guard !refusals.isEmpty else {
            chipAuthentication = .notRun(
                "DG14's Chip Authentication keys cannot be used: \(unusable.joined(separator: "; "))")
            return
        }
        throw ReadError(
            .chipAuthentication,
            "the chip refused Chip Authentication with every key DG14 offers (it may be a clone): "
                + refusals.joined(separator: "; "))
    }

    /// The first answer under Chip Authentication's keys: a verified one confirms it; a session
    /// that ended means the chip does not hold DG14's private key.
    mutating func confirm(_ outcome: FileReadOutcome) throws(ReadError) {
        guard isAwaitingConfirmation else { return }
        if case .failed(let error) = outcome, error.code == .secureMessaging {
            throw ReadError(
                .chipAuthentication,
                "the chip did not answer under the keys agreed by Chip Authentication (it may be a clone): "
                    + error.reason)
        }
        recorder.note("chip authentication: the chip answered under the new keys")
        chipAuthentication = .proved(.signedDataGroup)
    }

    /// PACE-CAM's proof against the signed key: EF.CardSecurity's when the chip has it, else DG14's.
    private mutating func checkChipAuthenticationMapping(dataGroup14: SecurityOptions?, cardSecurity: [UInt8]?) {
        guard let data = access.paceResult?.chipAuthenticationMapping else { return }
        chipAuthenticationMappingProof = AcquisitionEvidence.ChipAuthenticationMappingProof(
            chipMappingPublicKey: Data(data.chipMappingPublicKey), authenticationData: Data(data.authenticationData))
        var source = KeySource.signedDataGroup
        var keys = dataGroup14?.chipAuthenticationPublicKeyInfos.map(\.publicKey) ?? []
        if cardSecurity == nil, keys.isEmpty {
            // A chip that runs PACE-CAM holds its key in EF.CardSecurity (ICAO 9303-11).
            chipAuthenticationMapping = .denied(
                "the chip ran PACE-CAM but delivered no EF.CardSecurity (nor a DG14 key) to check its proof "
                    + "against: a chip without the issuer's key can hide the file that names it")
            return
        }
        if let cardSecurity {
            let verification = CardSecurityVerification(cardSecurity, trustStore: trustStore, at: checkTime)
            source = .cardSecurity(verification.status)
            keys = verification.securityInfos?.chipAuthenticationPublicKeyInfos.map(\.publicKey) ?? []
        }
        do throws(ChipAuthenticationError) {
            let key = try ChipAuthenticationMappingVerifier.verify(
                chipAuthenticationData: data.authenticationData, chipMappingPublicKey: data.chipMappingPublicKey,
                candidates: keys)
            chipAuthenticationMappingProof?.checkedAgainst = Data(key.encoded)
            chipAuthenticationMappingProof?.keySource = cardSecurity == nil ? "dataGroup14" : "cardSecurity"
            recorder.note("PACE-CAM: the chip's authentication data verified")
            chipAuthenticationMapping = .proved(source)
        } catch {
            recorder.note("PACE-CAM: \(error.reason)")
            chipAuthenticationMapping =
                error.code == .unusableKey
                ? .notRun("PACE-CAM's proof cannot be checked: \(error.reason)") : .denied(error.reason)
        }
    }

    // MARK: Active Authentication

    /// Runs Active Authentication when the rule calls for it (`ChipEvidence.activeAuthenticationRuns`)
    /// with the caller's challenge or a random one.
    mutating func activeAuthentication(
        publicKey: ActiveAuthenticationPublicKey?, securityInfos: SecurityOptions?, challenge: [UInt8]?
    ) {
        guard let publicKey else { return }
        let proved = { (progress: Progress) in if case .proved = progress { true } else { false } }
        guard
            ChipEvidence.activeAuthenticationRuns(
                dataGroup15HoldsKey: true, challengeGiven: challenge != nil,
                chipAuthenticationRan: proved(chipAuthentication),
                chipAuthenticationMappingRan: proved(chipAuthenticationMapping))
        else {
            activeAuthentication = .notRun(
                "Active Authentication was not needed: another protocol proved the chip and no challenge was given")
            return
        }
        guard let channel else {
            activeAuthentication = .notRun(
                "the chip was opened without a secure channel to run Active Authentication on")
            return
        }
        // An RSA signature whose protected answer exceeds 256 bytes needs extended length: over a
        // link without it (many PC/SC readers) the chip can only refuse or cut the signature, which
        // says nothing of the chip, so the protocol is not run rather than failed.
        let key = publicKey.publicKey
        let bits = Int(key.keySize)
        if key.keyAlgorithm == .rsa, key.keySize > 0, !channel.supportsExtendedLength {
            let answerLength = channel.currentSession.protectedResponseLength(forExpectedLength: (bits + 7) / 8)
            if answerLength > CommandAPDU.maximumShortExpectedLength {
                activeAuthentication = .notRun(
                    "DG15's \(bits)-bit RSA key signs in an answer of \(answerLength) bytes under secure messaging, "
                        + "which needs extended length, and the link (card reader or chip) has none")
                return
            }
        }
        let givenChallenge = challenge
        var challenge = givenChallenge ?? []
        if givenChallenge == nil {
            do throws(SecretsError) {
                challenge = try RandomSource.system.bytes(count: 8).withUnsafeBytes { Array($0) }
            } catch {
                activeAuthentication = .notRun("no random challenge: \(error.reason)")
                return
            }
        }
        recorder.note("active authentication started")
        do throws(ChipAuthenticationError) {
            let signature = try ActiveAuthentication.internalAuthenticate(
                challenge: challenge, publicKey: publicKey.publicKey, over: channel)
            activeAuthenticationProof = AcquisitionEvidence.ActiveAuthenticationProof(
                challenge: Data(challenge), signature: Data(signature))
            let scheme = try ActiveAuthentication.verify(
                signature: signature, challenge: challenge, publicKey: publicKey.publicKey,
                info: securityInfos?.activeAuthenticationInfo)
            activeAuthenticationProof?.algorithm = "\(scheme)"
            recorder.note("active authentication: the signature verified (\(scheme))")
            activeAuthentication = .proved(.signedDataGroup)
            if givenChallenge != nil { activeAuthenticationResponse = signature }
        } catch {
            recorder.note("active authentication: \(error.reason)")
            switch error.code {
            case .unusableKey: activeAuthentication = .notRun("DG15's key cannot be used: \(error.reason)")
            case .transport: activeAuthentication = .notRun("Active Authentication could not finish: \(error.reason)")
            default:
                // A failure is a verdict (`denied`) and, as the reference lists it, a warning.
                activeAuthentication = .denied("Active Authentication failed: \(error.reason)")
                warnings.append("Active Authentication failed: \(error.reason)")
            }
        }
    }

    // MARK: Terminal Authentication

    /// Terminal Authentication v1 before DG3 and DG4, when a terminal is configured: EF.CVCA's
    /// trust points, the path from one of them to the IS certificate, the challenge signed over
    /// ID_PICC (`chipIdentifier`). Anything short of success
    /// leaves DG3 and DG4 closed and says why in `terminalAuthenticationStatus`; only a link failure
    /// fails the read.
    mutating func terminalAuthentication(dataGroup1: [UInt8]?, securityInfos: SecurityOptions?) throws(ReadError) {
        guard let terminal else { return }
        let notRun = { (reason: String) in TerminalAuthenticationStatus(.notRun, reason) }
        guard let channel else {
            terminalAuthenticationStatus = notRun("the chip was opened without a secure channel to run it on")
            return
        }
        guard let chipAuthenticationOutcome, channel.failure == nil else {
            let why: String =
                switch chipAuthentication {
                case .notRun(let reason): reason
                case .notOffered: "DG14 offers no Chip Authentication"
                default: "Chip Authentication did not finish"
                }
            terminalAuthenticationStatus = notRun(
                "Terminal Authentication v1 binds to Chip Authentication's ephemeral key, and Chip Authentication "
                    + "did not run: \(why)")
            return
        }
        var documentIdentifier: [UInt8] = []
        defer { documentIdentifier.wipe() }
        do {
            documentIdentifier = try Self.chipIdentifier(access: access, dataGroup1: dataGroup1)
        } catch {
            terminalAuthenticationStatus = notRun("DG1 gives no document number to sign (ID_PICC): \(error)")
            return
        }
        let recorder = self.recorder
        var path: [CVCertificate] = []
        do throws(ChipAuthenticationError) {
            let trustPoints = try TerminalAuthenticationV1.readTrustPoints(
                fileIdentifier: securityInfos?.terminalAuthenticationInfos.first?.efCVCAFileId, over: channel)
            recorder.note("terminal authentication: EF.CVCA names \(trustPoints.joined(separator: " and "))")
            do throws(ChipAuthenticationError) {
                path = try TerminalAuthenticationV1.path(from: terminal.certificates, trustPoints: trustPoints)
            } catch {
                terminalAuthenticationStatus = notRun(error.reason)
                warnings.append("Terminal Authentication was not run, so DG3 and DG4 stay closed: \(error.reason)")
                return
            }
            let authenticated = try TerminalAuthenticationV1.run(
                certificates: path, documentIdentifier: documentIdentifier,
                chipAuthentication: chipAuthenticationOutcome, signer: terminal.signer, over: channel
            ) { recorder.note($0) }
            terminalAuthenticationStatus = TerminalAuthenticationStatus(
                .succeeded,
                "the chip accepted \(authenticated.holderReference) (\(authenticated.authorization))",
                certificates: path.map(\.holderReference))
        } catch {
            if let transportError = error.transportError {
                throw ReadError(transport: transportError, during: "Terminal Authentication")
            }
            recorder.note("terminal authentication: \(error.reason)")
            // Before a path was chosen, the chip refused EF.CVCA: it names no trust point to run to.
            let ran = !path.isEmpty
            terminalAuthenticationStatus = TerminalAuthenticationStatus(
                ran ? .failed : .notRun, ran ? error.reason : "EF.CVCA gives no trust point: \(error.reason)",
                certificates: path.map(\.holderReference), statusWord: error.statusWord.map(Self.hex))
            warnings.append(
                "Terminal Authentication \(ran ? "failed" : "was not run"), so DG3 and DG4 stay closed: "
                    + terminalAuthenticationStatus.reason)
        }
    }

    /// ID_PICC, the chip's identifier Terminal Authentication signs (9303-11 §7.1.2, TR-03110-3
    /// B.11.1): after PACE Comp(PK_PICC), the chip's ephemeral key of PACE's key agreement
    /// compressed; after BAC the document number and its check digit, the MRZ information's start.
    static func chipIdentifier(access: EstablishedAccess, dataGroup1: [UInt8]?) throws -> [UInt8] {
        if let pace = access.paceResult {
            return TerminalAuthenticationV1.compressed(
                pace.chipEphemeralPublicKey, isPoint: pace.paceProtocol.keyAgreement == .ecdh)
        }
        let zone = try MRZDataGroup(dataGroup1 ?? []).machineReadableZone
        // After BAC: the MRZ information's start, the document number and its check digit.
        return try AccessPassword.printed(in: zone).withPasswordBytes { Array($0.dropLast(14)) }
    }

    /// A status word as its four hex digits.
    private static func hex(_ statusWord: StatusWord) -> String {
        let digits = String(statusWord.rawValue, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    // MARK: The evidence

    /// The transcripts as values: what `evidence.json` keeps.
    func acquisitionEvidence() -> AcquisitionEvidence {
        let terminal = terminalAuthenticationStatus
        return AcquisitionEvidence(
            access: AcquisitionEvidence.Access(access), chipAuthenticationMapping: chipAuthenticationMappingProof,
            chipAuthentication: chipAuthenticationOutcome.map {
                AcquisitionEvidence.ChipAuthenticationProof($0, confirmed: !isAwaitingConfirmation)
            }, activeAuthentication: activeAuthenticationProof,
            terminalAuthentication: terminal.status == .notConfigured
                ? nil
                : AcquisitionEvidence.TerminalAuthenticationProof(
                    certificates: terminal.certificates, outcome: terminal.status.rawValue, reason: terminal.reason))
    }

    /// What each protocol is worth once Passive Authentication has spoken: a key from DG14 or DG15
    /// counts only if that data group is authenticated, and from EF.CardSecurity only if it is.
    func evidence(data: DataAuthenticationStatus) -> ChipEvidence { judge(data) }

    /// `evidence(data:)` as a value the read hands to the assembly (`ReadEvidence.chipProtocols`).
    var judge: @Sendable (DataAuthenticationStatus) -> ChipEvidence {
        let (mapping, authentication, active) = (chipAuthenticationMapping, chipAuthentication, activeAuthentication)
        let response = activeAuthenticationResponse
        let undelivered = undeliveredKeyFiles
        return { data in
            ChipEvidence(
                chipAuthenticationMapping: Self.outcome(mapping, keyIn: 14, data: data, name: "PACE-CAM"),
                chipAuthentication: Self.outcome(authentication, keyIn: 14, data: data, name: "Chip Authentication"),
                activeAuthentication: Self.outcome(active, keyIn: 15, data: data, name: "Active Authentication"),
                activeAuthenticationResponse: response.map { Data($0) },
                withheldKeyFiles: Self.withheld(undelivered, data: data))
        }
    }

    /// The key files the issuer signed for and the chip did not deliver (`WithheldKeyFileStep`).
    /// (A PACE-CAM without EF.CardSecurity is denied when it is checked.)
    private static func withheld(_ undelivered: [(number: Int, answer: String)], data: DataAuthenticationStatus)
        -> [String]
    {
        WithheldKeyFileStep.reasons(
            missing: undelivered.map { ($0.number, "the chip did not deliver it (\($0.answer))") }, data: data)
    }

    private static func outcome(_ progress: Progress, keyIn number: Int, data: DataAuthenticationStatus, name: String)
        -> ChipProtocolOutcome
    {
        switch progress {
        case .notOffered: return .notOffered
        case .notRun(let reason): return .notRun(reason)
        case .denied(let reason): return .denied(reason)
        case .awaitingConfirmation:
            return .notRun("\(name) re-keyed the channel, but no answer under the new keys was received")
        case .proved(.cardSecurity(let status)):
            switch status {
            case .authentic: return .authenticated
            case .authorityNotProvided:
                return .unproven(
                    "\(name) verified, but no trusted CSCA issued EF.CardSecurity's signer, so its key is not proved")
            case .notAuthentic(let reason):
                return .denied("\(name) used a key from an EF.CardSecurity that is not authentic: \(reason)")
            }
        case .proved(.signedDataGroup):
            let file = "DG\(number)"
            let hash = data.dataGroupHashes.first { $0.dataGroupNumber == number }
            if hash?.status == .invalid {
                return .denied(
                    "\(name) verified with \(file)'s key, but \(file) does not match EF.SOD: the key is not the issuer's"
                )
            }
            guard data.status == .authenticated, hash?.status == .valid else {
                return .unproven(
                    "\(name) verified with \(file)'s key, but \(file) is not authenticated (data verdict "
                        + "\(data.status.rawValue)), so the key is not proved to be the issuer's")
            }
            return .authenticated
        }
    }
}
