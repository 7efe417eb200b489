import Arithmetic
import ICAO
import Secrets
import TestSupport
import Testing
import Transport

@testable import ChipSimulator

/// Each PACE fault as the test's terminal meets it: the chip misbehaves the way the fault says and
/// the terminal's checks catch it (or, for stripped leading zeros, cope with it).
@Suite struct PACEFaultTests {
    static let ecdh = PACEHandlerTests.paceProtocol(.genericMapping, .ecdh, .aes128)
    static let dh = PACEHandlerTests.paceProtocol(.genericMapping, .dh, .aes128)

    static func failure(
        _ fault: PACEFault, _ paceProtocol: PACEProtocol, _ parameters: StandardizedDomainParameters
    ) -> PACETestTerminal.Failure? {
        let chip = PACEHandlerTests.chip(offering: [(paceProtocol, parameters)], faults: [.pace(fault)])
        return PACEHandlerTests.failure(chip, PACEHandlerTests.terminal(paceProtocol, parameters))
    }

    @Test func wrongToken() {
        #expect(Self.failure(.wrongToken, Self.ecdh, .brainpoolP256r1) == .wrongChipToken)
        #expect(Self.failure(.wrongToken, Self.dh, .modp1024Subgroup160) == .wrongChipToken)
    }

    @Test func reflectedKey() {
        #expect(Self.failure(.reflectedKey, Self.ecdh, .brainpoolP256r1) == .reflectedChipKey)
        #expect(Self.failure(.reflectedKey, Self.dh, .modp1024Subgroup160) == .reflectedChipKey)
    }

    @Test func invalidKeys() {
        for fault in [PACEFault.offCurveKey, .smallSubgroupKey] {
            #expect(Self.failure(fault, Self.ecdh, .brainpoolP256r1) == .invalidChipKey(step: 3))
            #expect(Self.failure(fault, Self.dh, .modp1024Subgroup160) == .invalidChipKey(step: 3))
        }
    }

    @Test func unalignedNonce() {
        #expect(Self.failure(.unalignedNonce, Self.ecdh, .brainpoolP256r1) == .nonceNotWholeBlocks)
        let tripleDES = PACEHandlerTests.paceProtocol(.integratedMapping, .dh, .tripleDES)
        #expect(Self.failure(.unalignedNonce, tripleDES, .modp1024Subgroup160) == .nonceNotWholeBlocks)
    }

    @Test(arguments: 1...4) func runDropped(step: Int) {
        #expect(
            Self.failure(.runDropped(step: step), Self.ecdh, .brainpoolP256r1)
                == .status(.conditionsNotSatisfied, step: step))
    }

    /// A mapping key whose encoding starts with a zero byte goes out without it; the run still
    /// completes for a terminal that reads DH values as integers.
    @Test func strippedLeadingZeros() throws {
        let group = try #require(StandardizedDomainParameters.modp1024Subgroup160.group)
        var exponent = 2
        while try group.encodePublicValue(group.generatorPower(BigInt(exponent))).first != 0 { exponent += 1 }
        let mappingKey = try BigInt(exponent).bytes(length: 20)
        let script = [UInt8](repeating: 0x5A, count: 16) + mappingKey + [UInt8](repeating: 0x3C, count: 20)
        let chip = PACEHandlerTests.chip(
            offering: [(Self.dh, .modp1024Subgroup160)], faults: [.pace(.strippedLeadingZeros)],
            random: .replaying(script))
        let outcome = try PACEHandlerTests.runAndRead(chip, PACEHandlerTests.terminal(Self.dh, .modp1024Subgroup160))
        #expect(outcome.chipMappingKey.count < group.length)
        #expect(outcome.chipMappingKey.first != 0)
    }
}
