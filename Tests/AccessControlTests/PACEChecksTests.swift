import ASN1
import Arithmetic
import ICAO
import LDS
import MRZ
import Secrets
import SecureMessaging
import TestSupport
import Testing
import Transport

@testable import AccessControl

/// Each check of the reader's PACE, triggered by a chip that departs from App. G.1 at one step:
/// the typed error, and whether it came before mutual authentication (then the next offer may be
/// tried).
@Suite struct PACEChecksTests {
    static let example = WorkedExample.genericMappingECDH
    /// G.1's keys, as the reader sends them.
    static let mappingKey =
        "047ACF3EFC982EC45565A4B155129EFBC74650DCBFA6362D896FC70262E0C2CC5E544552DCB6725218799115B55C9BAA6D9F6BC3A9618E70C25AF71777A9C4922D"
    static let ephemeralKey =
        "042DB7A64C0355044EC9DF190514C625CBA2CEA48754887122F3A5EF0D5EDD301C3556F3B3B186DF10B857B58F6A7EB80F20BA5DC7BE1D43D9BF850149FBB36462"
    static let chipMappingKey =
        "04824FBA91C9CBE26BEF53A0EBE7342A3BF178CEA9F45DE0B70AA601651FBA3F5730D8C879AAA9C9F73991E61B58F4D52EB87A0A0C709A49DC63719363CCD13C54"

    /// G.1 up to (not including) GENERAL AUTHENTICATE step `step` (1–4), then `command` answered by
    /// `response`.
    static func diverging(atStep step: Int, answer response: String) -> [ScriptedTransport.Step] {
        Array(example.steps.prefix(step)) + [.exchange(example.generalAuthenticate[step - 1].command, response)]
    }

    /// How PACE with G.1's offer and random bytes fails against `steps`.
    static func failure(
        _ steps: [ScriptedTransport.Step], example: WorkedExample = example, random: RandomSource? = nil,
        supportsExtendedLength: Bool = false
    ) throws -> PACEFailure? {
        let transport = ScriptedTransport(steps, supportsExtendedLength: supportsExtendedLength)
        let infos = try example.securityInfos()
        defer { #expect(transport.isComplete, "\(transport.failures)") }
        do throws(PACEFailure) {
            _ = try PasswordAuthenticatedConnectionEstablishment.run(
                example.offer, cardAccess: infos, accessKey: example.accessKey, over: transport,
                random: random ?? .replaying(example.random), log: { _ in })
            return nil
        } catch {
            return error
        }
    }

    @Test func aReflectedMappingKeyIsRefused() throws {
        let failure = try #require(
            try Self.failure(Self.diverging(atStep: 2, answer: "7C438241" + Self.mappingKey + "9000")))
        #expect(failure.error.code == .chipVerificationFailed)
        #expect(failure.error.reason == "the chip's mapping key is ours reflected")
        #expect(failure.beforeMutualAuthentication)
    }

    @Test func aReflectedEphemeralKeyIsRefused() throws {
        let failure = try #require(
            try Self.failure(Self.diverging(atStep: 3, answer: "7C438441" + Self.ephemeralKey + "9000")))
        #expect(failure.error.code == .chipVerificationFailed)
        #expect(failure.error.reason == "the chip's ephemeral key is ours reflected")
    }

    @Test func aPointOffTheCurveIsRefused() throws {
        let offCurve = String(Self.chipMappingKey.dropLast(2)) + "55"
        let failure = try #require(try Self.failure(Self.diverging(atStep: 2, answer: "7C438241" + offCurve + "9000")))
        #expect(failure.error.code == .chipVerificationFailed)
        #expect(failure.error.reason.hasPrefix("the chip's mapping key is invalid: invalidPoint"))
    }

    /// A compressed point is refused: 9303-11 uses uncompressed points only.
    @Test func aCompressedPointIsRefused() throws {
        let compressed = "03" + Self.chipMappingKey.dropFirst(2).prefix(64)
        let failure = try #require(
            try Self.failure(Self.diverging(atStep: 2, answer: "7C238221" + compressed + "9000")))
        #expect(failure.error.code == .chipVerificationFailed)
    }

    /// A chip that picks PK_Map,IC = −(s/SK_Map,IFD)·G makes H = −s·G, so Ĝ = s·G + H is the point
    /// at infinity: refused before any key is made on it.
    @Test func aMappedGeneratorAtInfinityIsRefused() throws {
        let curve = try #require(StandardizedDomainParameters.brainpoolP256r1.curve)
        let nonce = BigInt(bytes: hex("3F00C4D39D153F2B2A214A078D899B22"))
        let mappingPrivateKey = BigInt(bytes: hex("7F4EF07B9EA82FD78AD689B38D0BC78CF21F249D953BC46F4C6E19259C010F99"))
        let inverse = try #require(mappingPrivateKey.inverse(modulo: curve.order))
        let scalar = ((curve.order - nonce) * inverse).modulo(curve.order)
        let hostileKey = try curve.encode(curve.multiply(curve.generator, by: scalar))
        let failure = try #require(
            try Self.failure(
                Self.diverging(atStep: 2, answer: "7C438241" + hostileKey.map { hexByte($0) }.joined() + "9000")))
        #expect(failure.error.code == .chipVerificationFailed)
        #expect(failure.error.reason.hasPrefix("the Generic Mapping failed"))
        #expect(failure.beforeMutualAuthentication)
    }

    @Test func anEncryptedNonceOfNoWholeNumberOfBlocksIsRefused() throws {
        let failure = try #require(
            try Self.failure(Self.diverging(atStep: 1, answer: "7C11800F95A3A016522EE98D01E76CB6B98B429000")))
        #expect(failure.error.code == .protocolViolation)
        #expect(
            failure.error.reason == "the encrypted nonce is 15 bytes, not a whole number of 16-byte blocks")
    }

    /// The chip's token differs in its last bit: refused, after mutual authentication (no next offer).
    @Test func aWrongChipTokenIsRefused() throws {
        let failure = try #require(try Self.failure(Self.diverging(atStep: 4, answer: "7C0A86083ABB9674BCE93C099000")))
        #expect(failure.error.code == .chipVerificationFailed)
        #expect(failure.error.reason == "the chip's authentication token is wrong")
        #expect(!failure.beforeMutualAuthentication)
    }

    @Test func aMissingChipTokenIsAProtocolViolation() throws {
        let failure = try #require(try Self.failure(Self.diverging(atStep: 4, answer: "7C009000")))
        #expect(failure.error.code == .protocolViolation)
        #expect(!failure.beforeMutualAuthentication)
    }

    /// A 2048-bit DH key needs extended length: refused before the step when the link has none,
    /// sent with an extended Le (0000) when it has.
    @Test func largeKeysNeedExtendedLength() throws {
        let offer = WorkedExample(
            protocolIdentifier: "0.4.0.127.0.7.2.2.4.1.2", parameterId: 2, accessKey: Self.example.accessKey,
            random: [], setAuthenticationTemplate: "0022C1A412800A04007F00070202040102830101840102",
            generalAuthenticate: [("10860000027C0000", "7C12801095A3A016522EE98D01E76CB6B98B42C39000")],
            ksEnc: [], ksMac: [])
        let withoutExtendedLength = try #require(try Self.failure(offer.steps, example: offer, random: .system))
        #expect(withoutExtendedLength.error.code == .notSupported)
        #expect(withoutExtendedLength.beforeMutualAuthentication)

        let extendedStep = ScriptedTransport.Step.respond("GENERAL AUTHENTICATE step 2") {
            command throws(TransportError) in
            // 7C 82 01 04 81 82 01 00 and the 256-byte key; extended Lc (00 01 08) and Le (00 00).
            guard command.expectedLength == 65536, command.data.count == 264,
                (try? command.encoded().count) == 4 + 3 + 264 + 2
            else { throw .Unexpected(detail: "not an extended GENERAL AUTHENTICATE: \(command)") }
            return ResponseAPDU(statusWord: .incorrectData)
        }
        let refused = try #require(
            try Self.failure(
                offer.steps + [extendedStep], example: offer, random: .system, supportsExtendedLength: true))
        #expect(refused.error.statusWord == StatusWord.incorrectData)
    }
}

private func hexByte(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}
