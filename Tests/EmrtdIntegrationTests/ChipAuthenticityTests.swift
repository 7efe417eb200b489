import ChipSimulator
import Emrtd
import Foundation
import ICAO
import LDS
import MRZ
import TestSupport
import Testing

/// The reader's chip protocols (package ChipAuthentication, run by the read) against the
/// simulator's, written apart: every Chip Authentication the standard defines, PACE-CAM on every
/// curve, Active Authentication with every RSA trailer and ECDSA curve, and each fault a clone or a
/// broken chip shows, ending in the verdict or error the rules give, with nothing read lost.
@Suite struct ChipAuthenticityTests {
    /// A specimen whose chip holds `credentials`, read with the MRZ (over BAC unless the credentials
    /// offer PACE) by a reader that trusts the specimen's CSCA (or none).
    static func read(
        _ credentials: Credentials, layout: SecurityInfoLayout = SecurityInfoLayout(), faults: [ChipFault] = [],
        challenge: [UInt8]? = nil, trusted: Bool = true, edit: (inout Specimen) throws -> Void = { _ in }
    ) throws -> TravelDocument {
        var specimen = try Specimen.generate(credentials: credentials, layout: layout)
        try edit(&specimen)
        let chip = SimulatedChip(
            configuration: ChipConfiguration(files: specimen.files, credentials: specimen.credentials, faults: faults))
        let reader = try EmrtdReader(
            config: ReaderConfig(
                useBuiltInAuthorityCertificates: false,
                authorityCertificates: trusted ? [Data(specimen.countrySigningCertificate)] : [], debug: true,
                renderImages: false))
        return try reader.read(
            transport: chip, accessKey: OrchestrationTests.accessKey, activeAuthenticationChallenge: challenge)
    }

    static func credentials(
        chipAuthentication: [String] = [], activeAuthentication: String? = nil, pace: [String] = []
    ) throws -> Credentials {
        var credentials = Credentials()
        credentials.chipAuthenticationKeys = try chipAuthentication.enumerated().map { index, name in
            try ChipAuthenticationKey.generate(
                named: name, keyIdentifier: chipAuthentication.count > 1 ? index + 1 : nil)
        }
        credentials.activeAuthenticationKey = try activeAuthentication.map {
            try ActiveAuthenticationKey.generate(named: $0)
        }
        credentials.paceOffers = try pace.map { try PACEOffer(named: $0) }
        return credentials
    }

    static func log(_ document: TravelDocument) -> [String] { document.debugInfo.events.map(\.message) }

    // MARK: Chip Authentication

    /// Every key agreement and cipher Chip Authentication v1 defines: ECDH on 8–18, DH on 0–2, with
    /// 3DES and AES-128/192/256.
    static let chipAuthenticationCases: [String] = {
        let ciphers = ["3DES", "AES-128", "AES-192", "AES-256"]
        let ecdh = StandardizedDomainParameters.allCases.filter { $0.keyAgreement == .ecdh }.flatMap { parameters in
            ciphers.map { "ECDH-\($0):\(parameters.id)" }
        }
        let dh = (0...2).flatMap { id in ciphers.map { "DH-\($0):\(id)" } }
        return ecdh + dh
    }()

    @Test(arguments: chipAuthenticationCases)
    func chipAuthentication(_ name: String) throws {
        let document = try Self.read(try Self.credentials(chipAuthentication: [name]))
        let chip = document.authenticationStatus.chip
        #expect(chip.status == .authenticated, "\(name): \(chip.reason)")
        #expect(chip.protocol == .chipAuthentication)
        #expect(Self.log(document).contains("chip authentication: the chip answered under the new keys"))
        // Every data group after DG14 came under the new keys and verified.
        #expect(document.authenticationStatus.data.status == .authenticated)
        #expect(document.authenticationStatus.chip.activeAuthentication == nil)
    }

    /// Without ChipAuthenticationInfo the reader infers 3DES from the key and warns.
    @Test(arguments: ["ECDH-3DES:13", "DH-3DES:0", "ECDH-3DES:18"])
    func withoutChipAuthenticationInfo(_ name: String) throws {
        let document = try Self.read(
            try Self.credentials(chipAuthentication: [name]), layout: SecurityInfoLayout(chipAuthenticationInfo: false))
        #expect(document.authenticationStatus.chip.status == .authenticated)
        #expect(document.warnings.contains { $0.contains("no ChipAuthenticationInfo") }, "\(document.warnings)")
    }

    /// Several keys told apart by key ID (the strongest is used) and keys with explicit parameters.
    @Test func severalKeysAndExplicitParameters() throws {
        for layout in [SecurityInfoLayout(), SecurityInfoLayout(explicitDomainParameters: true)] {
            let document = try Self.read(
                try Self.credentials(chipAuthentication: ["DH-3DES:0", "ECDH-AES-256:16", "ECDH-AES-128:12"]),
                layout: layout)
            #expect(document.authenticationStatus.chip.status == .authenticated)
            #expect(
                Self.log(document).contains {
                    $0.hasPrefix("chip authentication started: id-CA-ECDH-AES-CBC-CMAC-256 with key ID 2")
                }, "\(Self.log(document))")
        }
    }

    // MARK: PACE-CAM

    @Test(arguments: StandardizedDomainParameters.allCases.filter { $0.keyAgreement == .ecdh })
    func chipAuthenticationMapping(_ parameters: StandardizedDomainParameters) throws {
        // PACE-CAM's static key is the chip's Chip Authentication key on the PACE curve.
        let document = try Self.read(
            try Self.credentials(
                chipAuthentication: ["ECDH-AES-128:\(parameters.id)"], pace: ["ECDH-CAM-AES-128:\(parameters.id)"]))
        #expect(document.paceMapping == .chipAuthenticationMapping)
        #expect(document.ldsMasterFile.cardSecurity != nil)
        let chip = document.authenticationStatus.chip
        #expect(chip.status == .authenticated, "\(parameters.name): \(chip.reason)")
        #expect(chip.protocol == .paceChipAuthenticationMapping)
        #expect(Self.log(document).contains { $0.hasPrefix("PACE-CAM: the chip's authentication data verified") })
    }

    // MARK: Active Authentication

    static let activeAuthenticationCases =
        [
            "rsa:1024:bc", "rsa:2048:bc", "rsa:2048:sha1", "rsa:2048:sha224", "rsa:2048:sha256", "rsa:2048:sha384",
            "rsa:2048:sha512", "rsa:1536:sha256", "rsa:3072:sha256", "rsa:4096:sha512",
        ]
        + StandardizedDomainParameters.allCases.filter { $0.keyAgreement == .ecdh }.flatMap {
            ["ecdsa:\($0.id)", "ecdsa:\($0.id):sha384:der"]
        }

    @Test(arguments: activeAuthenticationCases)
    func activeAuthentication(_ name: String) throws {
        // Without Chip Authentication, Active Authentication runs with a random challenge.
        let document = try Self.read(try Self.credentials(activeAuthentication: name))
        let chip = document.authenticationStatus.chip
        #expect(chip.status == .authenticated, "\(name): \(chip.reason)")
        #expect(chip.protocol == .activeAuthentication && chip.activeAuthentication == .authenticated)
        // A random challenge's signature is not handed out.
        #expect(chip.activeAuthenticationResponse == nil)
    }

    /// With Chip Authentication as well, Active Authentication runs only for a caller's challenge,
    /// and then its signature comes back.
    @Test func activeAuthenticationBesideChipAuthentication() throws {
        let credentials = try Self.credentials(
            chipAuthentication: ["ECDH-AES-128:13"], activeAuthentication: "rsa:2048")
        let without = try Self.read(credentials)
        #expect(without.authenticationStatus.chip.protocol == .chipAuthentication)
        #expect(without.authenticationStatus.chip.activeAuthentication == nil)
        let challenge: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        let with = try Self.read(credentials, challenge: challenge)
        let chip = with.authenticationStatus.chip
        #expect(chip.status == .authenticated && chip.protocol == .chipAuthentication)
        #expect(chip.activeAuthentication == .authenticated)
        #expect(chip.activeAuthenticationResponse?.count == 256)
    }

    // MARK: Faults

    /// A clone (its private keys are not those the issuer signed): Chip Authentication cannot
    /// answer under the agreed keys, and the read fails keeping what was read.
    @Test func aCloneFailsChipAuthentication() throws {
        for fault in [
            ChipFault.clonedKeys, .chipAuthentication(.keepsOldKeys), .chipAuthentication(.wrongMACAfterRekey),
        ] {
            #expect {
                try Self.read(try Self.credentials(chipAuthentication: ["ECDH-AES-128:13"]), faults: [fault])
            } throws: { error in
                guard let error = error as? ReadError, error.kind == .chipAuthentication else { return false }
                return error.debugInfo?.filesRead?.filesRead.contains(.dg14) == true
            }
        }
    }

    @Test func aCloneFailsActiveAuthentication() throws {
        let credentials = try Self.credentials(activeAuthentication: "ecdsa:13")
        for fault in [ChipFault.clonedKeys, .activeAuthenticationOverOtherChallenge] {
            let document = try Self.read(credentials, faults: [fault])
            let chip = document.authenticationStatus.chip
            #expect(chip.status == .denied && chip.protocol == .activeAuthentication, "\(chip.reason)")
            #expect(chip.activeAuthentication == .denied)
            // The reference lists a failed Active Authentication among the warnings too.
            #expect(document.warnings.contains { $0.hasPrefix("Active Authentication failed") }, "\(document.warnings)")
        }
        // A denied Active Authentication denies the chip even when Chip Authentication verified.
        let both = try Self.credentials(chipAuthentication: ["ECDH-AES-128:13"], activeAuthentication: "rsa:1024:bc")
        let chip = try Self.read(
            both, faults: [.activeAuthenticationOverOtherChallenge], challenge: [0, 0, 0, 0, 0, 0, 0, 1]
        )
        .authenticationStatus.chip
        #expect(chip.status == .denied && chip.protocol == .activeAuthentication)
        #expect(chip.activeAuthenticationResponse == nil)
    }

    @Test func aWrongPACECAMProofOrForgedCardSecurityIsDenied() throws {
        let credentials = try Self.credentials(chipAuthentication: ["ECDH-AES-128:13"], pace: ["ECDH-CAM-AES-128:13"])
        for fault in [ChipFault.pace(.wrongChipAuthenticationData), .forgedCardSecurity] {
            let document = try Self.read(credentials, faults: [fault])
            let chip = document.authenticationStatus.chip
            #expect(chip.status == .denied && chip.protocol == .paceChipAuthenticationMapping, "\(chip.reason)")
            // Nothing read was lost.
            #expect(document.ldsMasterFile.dataGroups[2] != nil)
        }
    }

    /// A key from a DG14 that does not match EF.SOD never makes the chip authenticated: here DG14
    /// and the chip's key come from another document, so Chip Authentication itself succeeds.
    @Test func aSwappedDataGroup14IsDenied() throws {
        let other = try Specimen.generate(credentials: try Self.credentials(chipAuthentication: ["ECDH-AES-128:13"]))
        let document = try Self.read(try Self.credentials(chipAuthentication: ["ECDH-AES-128:13"])) { specimen in
            specimen.files[dataGroup: 14] = other.files[dataGroup: 14]
            specimen.credentials.chipAuthenticationKeys = other.credentials.chipAuthenticationKeys
        }
        #expect(document.authenticationStatus.data.status == .denied)
        let chip = document.authenticationStatus.chip
        #expect(chip.status == .denied && chip.protocol == .chipAuthentication, "\(chip.reason)")
    }

    /// A specimen directory keeps its chip's keys (`chip-keys.der`): restored, they prove the chip
    /// again (Chip Authentication with two keys, ECDSA Active Authentication); without them the
    /// chip is a clone.
    @Test func savedKeysProveTheChipAgain() throws {
        let original = try Self.credentials(
            chipAuthentication: ["DH-3DES:0", "ECDH-AES-192:11"], activeAuthentication: "ecdsa:13:sha512:der")
        let challenge: [UInt8] = [9, 8, 7, 6, 5, 4, 3, 2]
        let restored = try Self.read(original, challenge: challenge) { specimen in
            let saved = try specimen.credentials.keysFile()
            specimen.credentials = Credentials()
            try specimen.credentials.restoreKeys(from: saved)
        }
        let chip = restored.authenticationStatus.chip
        #expect(chip.status == .authenticated && chip.protocol == .chipAuthentication, "\(chip.reason)")
        #expect(chip.activeAuthentication == .authenticated)
        #expect(throws: ReadError.self) {
            try Self.read(original) { specimen in
                specimen.credentials = try Self.credentials(chipAuthentication: ["DH-3DES:0"])
            }
        }
        var empty = Credentials()
        #expect(throws: ChipSimulatorError.self) { try empty.restoreKeys(from: [0x30, 0x03, 0x02, 0x01, 0x00]) }
    }

    /// Without a trusted CSCA the keys of DG14 and DG15 are not proved to be the issuer's: the
    /// chip is not called authenticated, and the reason says why.
    /// The protocol is reported as run (its outcome kept), never as `notSupported`: the chip has it.
    @Test func withoutTrustTheChipIsNotAuthenticated() throws {
        let document = try Self.read(
            try Self.credentials(chipAuthentication: ["ECDH-AES-128:13"]), trusted: false)
        #expect(document.authenticationStatus.data.status == .authorityCertificatesNotProvided)
        let chip = document.authenticationStatus.chip
        #expect(chip.status == .denied && chip.protocol == .chipAuthentication, "\(chip.reason)")
        #expect(chip.reason.contains("not authenticated"), "\(chip.reason)")
    }

    /// Active Authentication and PACE-CAM that verified against an unproved key: kept as run.
    @Test func aVerifiedProtocolWithAnUnprovedKeyIsKept() throws {
        let active = try Self.read(try Self.credentials(activeAuthentication: "ecdsa:13"), trusted: false)
            .authenticationStatus.chip
        #expect(active.status == .denied && active.protocol == .activeAuthentication, "\(active.reason)")
        #expect(active.activeAuthentication == .authenticated)
        let mapping = try Self.read(
            try Self.credentials(chipAuthentication: ["ECDH-AES-128:13"], pace: ["ECDH-CAM-AES-128:13"]),
            trusted: false
        ).authenticationStatus.chip
        #expect(mapping.status == .denied && mapping.protocol == .paceChipAuthenticationMapping, "\(mapping.reason)")
        #expect(mapping.reason.contains("EF.CardSecurity"), "\(mapping.reason)")
    }

    // MARK: Hidden key files

    /// A clone that hides the key files EF.SOD lists (EF.COM leaves them out, the chip answers
    /// 6A82): data authenticated, chip denied naming the file, strict mode failing.
    @Test(arguments: [Set([15]), Set([14, 15])])
    func aChipHidingItsKeyFilesIsDenied(_ hidden: Set<Int>) throws {
        let credentials = try Self.credentials(
            chipAuthentication: hidden.contains(14) ? ["ECDH-AES-128:13"] : [], activeAuthentication: "ecdsa:13")
        let document = try Self.read(credentials, faults: [.hidesDataGroups(hidden)])
        #expect(document.authenticationStatus.data.status == .authenticated)
        for number in hidden { #expect(document.ldsMasterFile.dataGroups[number] == nil) }
        let chip = document.authenticationStatus.chip
        #expect(chip.status == .denied, "\(chip.reason)")
        let first = hidden.min() ?? 0
        #expect(
            chip.reason.hasPrefix("EF.SOD lists DG\(first), but the chip did not deliver it (6A82"), "\(chip.reason)")
        let checks = DocumentChecks(document: document, printedZone: nil, at: Date())
        #expect(checks.unmetStrictRequirements.contains("the chip is denied"))
        // The same chip delivering its files is authenticated.
        let genuine = try Self.read(credentials).authenticationStatus.chip
        #expect(genuine.status == .authenticated, "\(genuine.reason)")
    }

    /// A data group neither EF.COM nor EF.SOD names is no withheld key: a chip without DG15 stays
    /// `notSupported`.
    @Test func aChipWithoutKeyFilesIsNotSupported() throws {
        let chip = try Self.read(Credentials()).authenticationStatus.chip
        #expect(chip.status == .notSupported, "\(chip.reason)")
    }
}
