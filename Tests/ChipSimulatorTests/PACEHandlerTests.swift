import ASN1
import Arithmetic
import ICAO
import Secrets
import SecureMessaging
import TestSupport
import Testing
import Transport

@testable import ChipSimulator

/// The test's own PACE terminal against the chip: every mapping, both key agreements, the four
/// ciphers, both passwords, then a file read under the new session; and the status words of a
/// wrong password, unoffered parameters, steps out of order, bad keys, and each PACE fault.
@Suite struct PACEHandlerTests {
    static let mrzInformation = "L898902C<369080619406236"
    static let mrz = MRZPassword(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623")
    static let can = CardAccessNumber("123456")!

    static func paceProtocol(_ mapping: PACEMapping, _ keyAgreement: KeyAgreement, _ cipher: BlockCipher)
        -> PACEProtocol
    {
        PACEProtocol(mapping: mapping, keyAgreement: keyAgreement, cipher: cipher)!
    }

    static func chip(
        offering offers: [(PACEProtocol, StandardizedDomainParameters)], can: CardAccessNumber? = can,
        chipAuthenticationKeys: [ChipAuthenticationKey] = [], offersBasicAccessControl: Bool = true,
        faults: [ChipFault] = [], random: RandomSource = .system
    ) -> SimulatedChip {
        var files = ChipFiles()
        files.com = PACEWorkedExampleTests.efCom
        let credentials = Credentials(
            mrz: mrz, can: can, paceOffers: offers.map { PACEOffer($0.0, parameters: $0.1)! },
            chipAuthenticationKeys: chipAuthenticationKeys)
        return SimulatedChip(
            configuration: ChipConfiguration(
                files: files, credentials: credentials, offersBasicAccessControl: offersBasicAccessControl,
                faults: faults),
            random: random)
    }

    static func terminal(
        _ paceProtocol: PACEProtocol, _ parameters: StandardizedDomainParameters, usingCAN: Bool = false
    ) -> PACETestTerminal {
        PACETestTerminal(
            paceProtocol: paceProtocol, parameters: parameters,
            password: usingCAN ? PACETestTerminal.can("123456") : PACETestTerminal.mrz(mrzInformation),
            passwordReference: usingCAN ? 2 : 1)
    }

    /// Runs PACE and reads EF.COM under the session it opened.
    static func runAndRead(_ chip: SimulatedChip, _ terminal: PACETestTerminal) throws -> PACETestTerminal.Outcome {
        var outcome = try terminal.run(on: chip)
        try PACEWorkedExampleTests.readCOM(chip, &outcome.session)
        return outcome
    }

    static func failure(_ chip: SimulatedChip, _ terminal: PACETestTerminal) -> PACETestTerminal.Failure? {
        do {
            _ = try terminal.run(on: chip)
            return nil
        } catch let failure as PACETestTerminal.Failure {
            return failure
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    static let combinations: [(PACEMapping, KeyAgreement, BlockCipher, StandardizedDomainParameters)] = [
        (.genericMapping, .ecdh, .aes128, .brainpoolP256r1),
        (.genericMapping, .ecdh, .tripleDES, .secp256r1),
        (.genericMapping, .ecdh, .aes192, .secp384r1),
        (.genericMapping, .ecdh, .aes256, .brainpoolP512r1),
        (.genericMapping, .ecdh, .aes256, .secp521r1),
        (.genericMapping, .ecdh, .aes128, .secp192r1),
        (.genericMapping, .dh, .aes128, .modp1024Subgroup160),
        (.genericMapping, .dh, .tripleDES, .modp2048Subgroup224),
        (.genericMapping, .dh, .aes256, .modp2048Subgroup256),
        (.integratedMapping, .ecdh, .aes128, .brainpoolP256r1),
        (.integratedMapping, .ecdh, .tripleDES, .brainpoolP320r1),
        (.integratedMapping, .ecdh, .aes192, .secp256r1),
        (.integratedMapping, .ecdh, .aes256, .brainpoolP384r1),
        (.integratedMapping, .dh, .aes128, .modp1024Subgroup160),
        (.integratedMapping, .dh, .tripleDES, .modp2048Subgroup256),
        (.chipAuthenticationMapping, .ecdh, .aes128, .brainpoolP256r1),
        (.chipAuthenticationMapping, .ecdh, .aes256, .secp384r1),
    ]

    @Test(arguments: combinations)
    func terminalCompletesPACEAndReads(
        mapping: PACEMapping, keyAgreement: KeyAgreement, cipher: BlockCipher, parameters: StandardizedDomainParameters
    ) throws {
        let paceProtocol = Self.paceProtocol(mapping, keyAgreement, cipher)
        let staticKey = try KeyAgreementKeyPair.generate(on: parameters)
        let chip = Self.chip(
            offering: [(paceProtocol, parameters)],
            chipAuthenticationKeys: mapping == .chipAuthenticationMapping ? [ChipAuthenticationKey(staticKey)] : [])
        for usingCAN in [false, true] {
            let outcome = try Self.runAndRead(chip, Self.terminal(paceProtocol, parameters, usingCAN: usingCAN))
            guard mapping == .chipAuthenticationMapping else {
                #expect(outcome.chipAuthenticationData == nil)
                continue
            }
            // PK_Map,IC = CA_IC · PK_IC (9303-11 §4.4.3.5.2).
            let curve = try #require(parameters.curve)
            let data = try #require(outcome.chipAuthenticationData)
            #expect(data.count == curve.orderLength)
            let product = curve.multiply(try curve.decodePoint(staticKey.publicKey), by: BigInt(bytes: data))
            #expect(try curve.encode(product) == outcome.chipMappingKey)
        }
    }

    @Test func severalOffersAreChosenByProtocolAndParameterID() throws {
        let gm = Self.paceProtocol(.genericMapping, .ecdh, .aes128)
        let chip = Self.chip(offering: [(gm, .brainpoolP256r1), (gm, .secp256r1)])
        _ = try Self.runAndRead(chip, Self.terminal(gm, .secp256r1))
        _ = try Self.runAndRead(chip, Self.terminal(gm, .brainpoolP256r1))
        // Without DO'84' two offers of the same protocol are ambiguous.
        var unnamed = Self.terminal(gm, .secp256r1)
        unnamed.namesParameters = false
        #expect(Self.failure(chip, unnamed) == .status(.incorrectData, step: 0))
    }

    @Test func wrongPasswordFailsTheTokenAndTheRightOneStillWorks() throws {
        let gm = Self.paceProtocol(.genericMapping, .ecdh, .aes128)
        let chip = Self.chip(offering: [(gm, .brainpoolP256r1)])
        let wrong = PACETestTerminal(
            paceProtocol: gm, parameters: .brainpoolP256r1, password: PACETestTerminal.mrz("L898902C<369080619406237"),
            passwordReference: 1)
        #expect(Self.failure(chip, wrong) == .status(.verificationFailed, step: 4))
        let wrongCAN = PACETestTerminal(
            paceProtocol: gm, parameters: .brainpoolP256r1, password: PACETestTerminal.can("654321"),
            passwordReference: 2)
        #expect(Self.failure(chip, wrongCAN) == .status(.verificationFailed, step: 4))
        // No session came of it: the files stay closed.
        #expect(
            try chip.transmit(CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: ApplicationIdentifier.emrtd)).statusWord
                == .success)
        #expect(
            try chip.transmit(CommandAPDU(ins: 0xB0, p1: 0x9E, p2: 0, expectedLength: 4)).statusWord
                == .securityStatusNotSatisfied)
        _ = try Self.runAndRead(chip, Self.terminal(gm, .brainpoolP256r1))
    }

    @Test func unofferedProtocolsParametersAndPasswordsAreRefused() throws {
        let gm = Self.paceProtocol(.genericMapping, .ecdh, .aes128)
        let chip = Self.chip(offering: [(gm, .brainpoolP256r1)], can: nil)
        #expect(Self.failure(chip, Self.terminal(gm, .secp256r1)) == .status(.incorrectData, step: 0))
        #expect(
            Self.failure(chip, Self.terminal(Self.paceProtocol(.genericMapping, .ecdh, .aes256), .brainpoolP256r1))
                == .status(.incorrectData, step: 0))
        #expect(
            Self.failure(chip, Self.terminal(Self.paceProtocol(.integratedMapping, .ecdh, .aes128), .brainpoolP256r1))
                == .status(.incorrectData, step: 0))
        // The chip has no CAN.
        #expect(
            Self.failure(chip, Self.terminal(gm, .brainpoolP256r1, usingCAN: true))
                == .status(.referencedDataNotFound, step: 0))
        // CAM without a static key on the curve.
        let cam = Self.paceProtocol(.chipAuthenticationMapping, .ecdh, .aes128)
        let keyless = Self.chip(offering: [(cam, .brainpoolP256r1)])
        #expect(
            Self.failure(keyless, Self.terminal(cam, .brainpoolP256r1)) == .status(.referencedDataNotFound, step: 0))
    }

    static func send(_ chip: SimulatedChip, _ command: String) throws -> StatusWord {
        try chip.transmit(CommandAPDU(encoded: hex(command))).statusWord
    }

    static let setAT = "0022C1A412800A04007F0007020204020283010184010D"

    @Test func malformedAndOutOfOrderCommandsGetStatusWords() throws {
        let chip = Self.chip(offering: [(Self.paceProtocol(.genericMapping, .ecdh, .aes128), .brainpoolP256r1)])
        // GENERAL AUTHENTICATE before MSE:Set AT.
        #expect(try Self.send(chip, "10860000027C0000") == .conditionsNotSatisfied)
        // MSE with other P1-P2 (41A4 is Chip Authentication's MSE:Set AT, refused without secure
        // messaging), garbage, no password reference, an unknown reference, a non-PACE OID.
        #expect(try Self.send(chip, "002241A412800A04007F0007020204020283010184010D") == .securityStatusNotSatisfied)
        #expect(try Self.send(chip, "002281B612800A04007F0007020204020283010184010D") == .incorrectParameters)
        #expect(try Self.send(chip, "0022C1A403800501") == .incorrectData)
        #expect(try Self.send(chip, "0022C1A40C800A04007F00070202040202") == .incorrectData)
        #expect(try Self.send(chip, "0022C1A40F800A04007F00070202040202830105") == .incorrectData)
        #expect(try Self.send(chip, "0022C1A40F800A04007F00070202030202830101") == .incorrectData)
        // Unknown tags are ignored (a CHAT the chip has no use for).
        #expect(try Self.send(chip, "0022C1A4187F4C03060100800A04007F0007020204020283010184010D") == .success)
        // Step 1 with data, not a 7C template, wrong P1-P2, and not chained.
        #expect(try Self.send(chip, "10860000047C029900") == .incorrectData)
        #expect(try Self.send(chip, "10860000027D0000") == .incorrectData)
        #expect(try Self.send(chip, "10860100027C0000") == .incorrectParameters)
        #expect(try Self.send(chip, "00860000027C0000") == .conditionsNotSatisfied)
        // Step 3's data object where step 2's belongs, then a token before any key agreement.
        #expect(try chip.transmit(CommandAPDU(encoded: hex("10860000027C0000"))).data.count == 20)
        #expect(try Self.send(chip, "10860000057C03830104") == .conditionsNotSatisfied)
        #expect(try Self.send(chip, "10860000027C0000") == .success)
        #expect(try Self.send(chip, "008600000C7C0A85080102030405060708") == .conditionsNotSatisfied)
    }

    @Test func invalidAndReflectedTerminalKeysAreRefused() throws {
        let gm = Self.paceProtocol(.genericMapping, .ecdh, .aes128)
        let chip = Self.chip(offering: [(gm, .brainpoolP256r1)])
        let curve = try #require(StandardizedDomainParameters.brainpoolP256r1.curve)
        let valid = try curve.encode(curve.generator)
        var offCurve = valid
        offCurve[offCurve.count - 1] ^= 0x01
        let compressed = try curve.encode(curve.generator, compressed: true)
        for key in [offCurve, compressed, [0x00], Array(valid.dropLast()), []] {
            #expect(try Self.send(chip, Self.setAT) == .success)
            #expect(try Self.send(chip, "10860000027C0000") == .success)
            let command = CommandAPDU(
                cla: 0x10, ins: 0x86, p1: 0, p2: 0, data: DER.tlv(ASN1Tag(0x7C), DER.tlv(ASN1Tag(0x81), key)))
            #expect(try chip.transmit(command).statusWord == .incorrectData)
        }
        // The terminal sends back the chip's mapping key as its ephemeral key.
        #expect(try Self.send(chip, Self.setAT) == .success)
        #expect(try Self.send(chip, "10860000027C0000") == .success)
        let mapping = try chip.transmit(
            CommandAPDU(
                cla: 0x10, ins: 0x86, p1: 0, p2: 0, data: DER.tlv(ASN1Tag(0x7C), DER.tlv(ASN1Tag(0x81), valid)),
                expectedLength: 256))
        let chipMappingKey = try #require(try ASN1Node.parse(mapping.data).child(ASN1Tag(0x82))).content
        let reflected = CommandAPDU(
            cla: 0x10, ins: 0x86, p1: 0, p2: 0, data: DER.tlv(ASN1Tag(0x7C), DER.tlv(ASN1Tag(0x83), chipMappingKey)))
        #expect(try chip.transmit(reflected).statusWord == .incorrectData)
    }

    @Test func invalidDHTerminalKeysAreRefused() throws {
        let gm = Self.paceProtocol(.genericMapping, .dh, .aes128)
        let chip = Self.chip(offering: [(gm, .modp1024Subgroup160)])
        let group = try #require(StandardizedDomainParameters.modp1024Subgroup160.group)
        let p = try group.encodePublicValue(group.p)
        let pMinusOne = try group.encodePublicValue(group.p - BigInt(1))
        // 1, p − 1 (order 2), p, 2 (outside the subgroup of order q), longer than p.
        for key in [[0x01], pMinusOne, p, [0x02], [0x00] + pMinusOne] {
            #expect(try Self.send(chip, "0022C1A40F800A04007F00070202040102830101") == .success)
            #expect(try Self.send(chip, "10860000027C0000") == .success)
            let command = CommandAPDU(
                cla: 0x10, ins: 0x86, p1: 0, p2: 0, data: DER.tlv(ASN1Tag(0x7C), DER.tlv(ASN1Tag(0x81), key)))
            #expect(try chip.transmit(command).statusWord == .incorrectData)
        }
    }

    @Test func paceOnlyChipRefusesBAC() throws {
        let gm = Self.paceProtocol(.genericMapping, .ecdh, .aes128)
        let chip = Self.chip(offering: [(gm, .brainpoolP256r1)], offersBasicAccessControl: false)
        #expect(try Self.send(chip, "0084000008") == .instructionNotSupported)
        #expect(
            try Self.send(chip, "0082000028" + String(repeating: "00", count: 40) + "28") == .instructionNotSupported)
        _ = try Self.runAndRead(chip, Self.terminal(gm, .brainpoolP256r1))
    }

    @Test func cardAccessListsEveryOffer() throws {
        let chip = Self.chip(offering: [
            (Self.paceProtocol(.genericMapping, .ecdh, .aes128), .brainpoolP256r1),
            (Self.paceProtocol(.integratedMapping, .dh, .tripleDES), .modp1024Subgroup160),
        ])
        #expect(try Self.send(chip, "00A4020C02011C") == .success)
        #expect(
            try chip.transmit(CommandAPDU(encoded: hex("00B0000000"))).data
                == hex("3128" + "3012060A04007F0007020204020202010202010D" + "3012060A04007F00070202040301020102020100")
        )
    }

    @Test func offersByNameAndOfferedByConfiguration() throws {
        let named = try PACEOffer(named: "ecdh-cam-aes-256:secp384r1")
        #expect(
            named == PACEOffer(Self.paceProtocol(.chipAuthenticationMapping, .ecdh, .aes256), parameters: .secp384r1))
        #expect(try PACEOffer(named: "DH-IM-3DES").parameters == .modp1024Subgroup160)
        #expect(try PACEOffer(named: "ECDH-GM-AES-128").parameters == .brainpoolP256r1)
        #expect(try PACEOffer(named: "DH-GM-AES-192:2").parameters == .modp2048Subgroup256)
        for wrong in [
            "ECDH-GM", "ECDH-XM-AES-128", "DH-CAM-AES-128", "ECDH-CAM-3DES", "ECDH-GM-AES-128:0", "DH-GM-3DES:7",
            "ECDH-IM-AES-128:10",
        ] {
            #expect(throws: ChipSimulatorError.self) { try PACEOffer(named: wrong) }
        }
        var configuration = ChipConfiguration(files: ChipFiles())
        #expect(throws: ChipSimulatorError.self) { try configuration.offerPACE([], only: true) }
        try configuration.offerPACE([named, named], only: true)
        #expect(!configuration.offersBasicAccessControl)
        // One fresh CAM key for the curve, whatever the number of offers on it.
        #expect(configuration.credentials.chipAuthenticationKeys.count == 1)
        var files = ChipFiles()
        files.com = PACEWorkedExampleTests.efCom
        configuration.files = files
        configuration.credentials.mrz = Self.mrz
        configuration.credentials.paceOffers = [named]
        _ = try Self.runAndRead(
            SimulatedChip(configuration: configuration), Self.terminal(named.paceProtocol, .secp384r1))
    }

    /// Random data at each step, after valid earlier steps (the generator stands in for the
    /// terminal's keys): every command gets a status word, and the chip still runs PACE afterwards.
    @Test func randomStepDataGetsStatusWords() throws {
        let gm = Self.paceProtocol(.genericMapping, .ecdh, .aes128)
        let chip = Self.chip(offering: [(gm, .brainpoolP256r1)])
        let curve = try #require(StandardizedDomainParameters.brainpoolP256r1.curve)
        let generator = try curve.encode(curve.generator)
        let validSteps = [
            DER.tlv(ASN1Tag(0x7C), []), DER.tlv(ASN1Tag(0x7C), DER.tlv(ASN1Tag(0x81), generator)),
            DER.tlv(ASN1Tag(0x7C), DER.tlv(ASN1Tag(0x83), generator)),
        ]
        var random = SystemRandomNumberGenerator()
        for round in 0..<200 {
            let junk = (0..<Int.random(in: 0...80, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random)
            }
            let tag: UInt64 = [0x80, 0x81, 0x83, 0x85, 0x7C][round % 5]
            let failingStep = round % 4 + 1
            #expect(try Self.send(chip, Self.setAT) == .success)
            for step in 1...failingStep {
                let data =
                    step < failingStep
                    ? validSteps[step - 1]
                    : (round % 3 == 0 ? junk : DER.tlv(ASN1Tag(0x7C), DER.tlv(ASN1Tag(tag), junk)))
                let command = CommandAPDU(cla: step < 4 ? 0x10 : 0x00, ins: 0x86, p1: 0, p2: 0, data: data)
                let status = try chip.transmit(command).statusWord
                #expect((status == .success) == (step < failingStep))
            }
        }
        _ = try Self.runAndRead(chip, Self.terminal(gm, .brainpoolP256r1))
    }
}
