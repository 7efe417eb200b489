import AccessControl
import ChipSimulator
import ICAO
import LDS
import MRZ
import Testing

/// The reader's PACE (AccessControl) against the simulator's chip side (ChipSimulator): two
/// implementations written apart, for every combination 9303-11 allows, with the MRZ and with
/// the CAN; after PACE the reader reads DG1 under the new secure messaging session.
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
        for password in [PACEPassword.mrz, .can] {
            var configuration = ChipConfiguration(files: specimen.files)
            configuration.credentials.can = CardAccessNumber(Self.can)
            let offer = try #require(PACEOffer(combination.paceProtocol, parameters: combination.parameters))
            try configuration.offerPACE([offer], only: true)
            let chip = SimulatedChip(configuration: configuration)
            let key =
                password == .mrz
                ? try AccessKey.mrz(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")
                : try AccessKey.can(value: Self.can)
            var session = try ChipAccess.open(
                chip, accessKey: key, preferences: ChipAccessPreferences(allowsBACFallback: false))
            guard case .pace(let result) = session.access else {
                Issue.record("\(combination) with \(password): opened with \(session.access)")
                continue
            }
            #expect(result.paceProtocol == combination.paceProtocol)
            #expect(result.parameterId == combination.parameters.id)
            #expect(result.password == password)
            #expect(
                (result.chipAuthenticationMapping != nil)
                    == (combination.paceProtocol.mapping == .chipAuthenticationMapping))
            #expect(session.channel.currentSession.cipher == combination.paceProtocol.cipher)
            #expect(try session.read(.dg1) == specimen.files[dataGroup: 1])
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
            try ChipAccess.open(chip, accessKey: try AccessKey.can(value: "654321"))
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
            let key = try AccessKey.mrz(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")
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
}
