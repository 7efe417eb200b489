import AccessControl
import ChipSimulator
import Foundation
import ICAO
import LDS
import MRZ
import Secrets
import Testing

/// The reader's PACE (AccessControl) against the simulator's chip side (ChipSimulator): two
/// implementations written apart, for every combination 9303-11 allows, with the MRZ and with
/// the CAN; after PACE the reader reads DG1 under the new secure messaging session. Under AES-192
/// and AES-256 the chip draws its nonce both ways chips do, one AES block and as long as the key
/// (Integrated Mapping's R(s, t) differs between them).
@Suite struct PACEInteroperabilityTests {
    /// One PACE offer the standard defines.
    struct Combination: Sendable, CustomStringConvertible {
        let paceProtocol: PACEProtocol
        let parameters: StandardizedDomainParameters
        var description: String { "\(paceProtocol) on \(parameters.name)" }
    }

    /// GM on every parameter set; IM where the point encoding is defined (ECDH needs p ≡ 3 mod 4,
    /// which secp224r1 is not); CAM on every curve; each with every cipher it allows.
    static let combinations: [Combination] = StandardizedDomainParameters.allCases.flatMap { parameters in
        PACEMapping.allCases.flatMap { mapping -> [Combination] in
            if mapping == .integratedMapping && parameters == .secp224r1 { return [] }
            return BlockCipher.allCases.compactMap { cipher in
                PACEProtocol(mapping: mapping, keyAgreement: parameters.keyAgreement, cipher: cipher).map {
                    Combination(paceProtocol: $0, parameters: parameters)
                }
            }
        }
    }

    static let specimen = Result { try Specimen.generate() }
    static let can = "123456"

    @Test func theMatrixCoversWhatTheStandardDefines() {
        // GM: 14 sets × 4 ciphers; IM: 13 × 4; CAM: 11 curves × 3 AES ciphers.
        #expect(Self.combinations.count == 14 * 4 + 13 * 4 + 11 * 3)
    }

    @Test(arguments: combinations)
    func theReaderOpensTheSimulatedChip(_ combination: Combination) throws {
        let specimen = try Self.specimen.get()
        let nonceLengths: [PACENonceLength] =
            combination.paceProtocol.cipher.keyLength > 16 ? [.oneBlock, .keyLength] : [.oneBlock]
        for nonceLength in nonceLengths {
            try Self.open(combination, specimen: specimen, nonceLength: nonceLength)
        }
    }

    private static func open(_ combination: Combination, specimen: Specimen, nonceLength: PACENonceLength) throws {
        for password in [PACEPassword.mrz, .can] {
            var configuration = ChipConfiguration(files: specimen.files, paceNonceLength: nonceLength)
            configuration.credentials.can = CardAccessNumber(Self.can)
            let offer = try #require(PACEOffer(combination.paceProtocol, parameters: combination.parameters))
            try configuration.offerPACE([offer], only: true)
            let chip = SimulatedChip(configuration: configuration)
            let key =
                password == .mrz
                ? try AccessPassword.mrz(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")
                : try AccessPassword.can(value: Self.can)
            var session = try ChipAccess.open(
                chip, accessKey: key, preferences: ChipAccessPreferences(allowsBACFallback: false))
            guard case .pace(let result) = session.access else {
                Issue.record("\(combination), \(nonceLength) nonce, \(password): opened with \(session.access)")
                continue
            }
            #expect(result.paceProtocol == combination.paceProtocol)
            #expect(result.parameterId == combination.parameters.id)
            #expect(result.password == password)
            #expect(
                (result.chipAuthenticationMapping != nil)
                    == (combination.paceProtocol.mapping == .chipAuthenticationMapping))
            #expect(session.secureChannel?.currentSession.cipher == combination.paceProtocol.cipher)
            #expect(session.fileReader.read(.dg1).bytes == specimen.files[dataGroup: 1])
        }
    }

    /// A wrong password is the chip's 6300, an access-denied error naming PACE; no BAC follows.
    @Test func aWrongPasswordIsRefusedByTheChip() throws {
        let specimen = try Self.specimen.get()
        var configuration = ChipConfiguration(files: specimen.files)
        configuration.credentials.can = CardAccessNumber(Self.can)
        try configuration.offerPACE([try PACEOffer(named: "ECDH-GM-AES-128:13")])
        let chip = SimulatedChip(configuration: configuration)
        #expect {
            try ChipAccess.open(chip, accessKey: try AccessPassword.can(value: "654321"))
        } throws: { error in
            guard let error = error as? AccessControlError else { return false }
            return error.code == .accessDenied && error.accessProtocol == .pace && error.statusWord?.rawValue == 0x6300
        }
    }

    /// What a misbehaving chip side makes of the reader: each fault of the simulator's PACE
    /// ends in the reader's typed error, before any file is read; faults before mutual
    /// authentication let the reader fall back to BAC when allowed.
    static let faults: [(PACEFault, offer: String, expected: AccessControlError.Code?)] = [
        (.wrongToken, "ECDH-GM-AES-128:13", .chipVerificationFailed),
        (.reflectedKey, "ECDH-GM-AES-128:13", .chipVerificationFailed),
        (.offCurveKey, "ECDH-GM-AES-128:13", .chipVerificationFailed),
        (.smallSubgroupKey, "ECDH-GM-AES-128:13", .chipVerificationFailed),
        (.offCurveKey, "DH-GM-AES-128:2", .chipVerificationFailed),
        (.smallSubgroupKey, "DH-GM-AES-128:2", .chipVerificationFailed),
        (.unalignedNonce, "ECDH-GM-AES-128:13", .protocolViolation),
        (.runDropped(step: 1), "ECDH-GM-AES-128:13", .protocolViolation),
        (.runDropped(step: 4), "ECDH-GM-AES-128:13", .protocolViolation),
        // Leading zeros stripped is tolerated: the reader pads the chip's DH values.
        (.strippedLeadingZeros, "DH-GM-AES-128:0", nil),
    ]

    @Test func eachChipFaultIsTheReadersTypedError() throws {
        let specimen = try Self.specimen.get()
        for (fault, offer, expected) in Self.faults {
            var configuration = ChipConfiguration(files: specimen.files, faults: [.pace(fault)])
            try configuration.offerPACE([try PACEOffer(named: offer)], only: true)
            let chip = SimulatedChip(configuration: configuration)
            let key = try AccessPassword.mrz(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")
            do throws(AccessControlError) {
                let session = try ChipAccess.open(
                    chip, accessKey: key, preferences: ChipAccessPreferences(allowsBACFallback: false))
                #expect(expected == nil, "\(fault) on \(offer): opened with \(session.access)")
            } catch {
                #expect(error.code == expected, "\(fault) on \(offer): \(error)")
                #expect(error.accessProtocol == .pace || error.accessProtocol == nil, "\(fault): \(error)")
            }
        }
    }

    /// A chip built on OpenSSL's `DH_compute_key` (OpenPACE) derives its keys from the DH secret
    /// without its leading zero bytes, so a reader that follows 9303-11 fails one session in 256
    /// with 6300, as if the password were wrong. The reader starts PACE again whenever the secret
    /// begins with a zero byte, before the chip judges the password: every session opens. Both
    /// sides draw from seeded sources, so the sessions (and the restarts among them) are the same
    /// in every run.
    /// On a PACE-only chip (BAC's commands answer 6D00), a PACE failure before mutual
    /// authentication stays the error after the BAC fallback is refused: PACE's reason, PACE's
    /// protocol, and no word of the MRZ, since no password was rejected.
    @Test func aRefusedBACFallbackLeavesPACEsFailure() throws {
        let specimen = try Self.specimen.get()
        var configuration = ChipConfiguration(files: specimen.files, faults: [.pace(.unalignedNonce)])
        try configuration.offerPACE([try PACEOffer(named: "ECDH-GM-AES-256:13")], only: true)
        let chip = SimulatedChip(configuration: configuration)
        let key = try AccessPassword.mrz(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")
        let error = #expect(throws: AccessControlError.self) { try ChipAccess.open(chip, accessKey: key) }
        #expect(error?.accessProtocol == .pace)
        #expect(error?.code == .protocolViolation)
        #expect(error?.reason.contains("BAC, tried instead, failed too") == true)
        #expect(error?.description.contains("check the document number") == false)
    }

    @Test func aChipThatDropsTheDHSecretsLeadingZerosOpensEverySession() throws {
        let specimen = try Self.specimen.get()
        var configuration = ChipConfiguration(files: specimen.files, faults: [.pace(.strippedSharedSecret)])
        try configuration.offerPACE([try PACEOffer(named: "DH-GM-AES-128:0")], only: true)
        let key = try AccessPassword.mrz(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")
        var restarts = 0
        for run in UInt64(0)..<Self.seededSessions {
            let chip = SimulatedChip(configuration: configuration, random: .seeded(2 * run))
            let log = LockedLines()
            var session = try ChipAccess.open(
                chip, accessKey: key, preferences: ChipAccessPreferences(allowsBACFallback: false),
                random: .seeded(2 * run + 1), log: log.append)
            #expect(session.fileReader.read(.dg1).bytes == specimen.files[dataGroup: 1])
            restarts += log.lines.filter { $0.contains("starting again") }.count
        }
        #expect(restarts > 0, "no DH secret began with a zero byte in \(Self.seededSessions) sessions")
    }

    static let seededSessions: UInt64 = 600
}

/// Log lines collected from a `@Sendable` logger.
private final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []
    var lines: [String] { lock.withLock { collected } }
    func append(_ line: String) { lock.withLock { collected.append(line) } }
}

extension RandomSource {
    /// SplitMix64 from `seed`: the same bytes in every run, for tests that need a rare event.
    fileprivate static func seeded(_ seed: UInt64) -> RandomSource {
        let state = LockedState(seed)
        return RandomSource { count in
            var bytes = [UInt8](repeating: 0, count: count)
            for index in bytes.indices { bytes[index] = state.nextByte() }
            return SecretBytes(consuming: &bytes)
        }
    }
}

private final class LockedState: @unchecked Sendable {
    private let lock = NSLock()
    private var state: UInt64
    init(_ seed: UInt64) { state = seed }
    func nextByte() -> UInt8 {
        lock.withLock {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return UInt8(truncatingIfNeeded: z ^ (z >> 31))
        }
    }
}
