import CryptoPrimitives
import MRZ
import SecureMessaging
import TestSupport
import Testing
import Transport

@testable import AccessControl

/// ICAO 9303-11 Appendix D.2 and D.3, byte for byte.
@Suite struct BasicAccessControlTests {
    @Test func derivesTheBasicAccessKeysFromTheMRZInformation() throws {
        let keys = Array(AppendixD.mrzInformation.utf8).withUnsafeBytes {
            BasicAccessControl.keys(fromMRZInformation: $0)
        }
        #expect(keys.encryption == (try SymmetricKey(.tripleDES, bytes: AppendixD.kEnc)))
        #expect(keys.mac == (try SymmetricKey(.tripleDES, bytes: AppendixD.kMac)))
        // The MRZ package builds the same MRZ information from the three fields.
        let fromAccessKey = try AppendixD.accessKey().withPasswordBytes { Array($0) }
        #expect(fromAccessKey == Array(AppendixD.mrzInformation.utf8))
    }

    @Test func runsTheAppendixDExchangeAndDerivesTheSession() throws {
        let transport = ScriptedTransport([
            .exchange(AppendixD.getChallenge, AppendixD.getChallengeResponse),
            .exchange(AppendixD.externalAuthenticate, AppendixD.externalAuthenticateResponse),
        ])
        let session = try BasicAccessControl.establish(
            accessKey: AppendixD.accessKey(), over: transport, random: AppendixD.fixedRandom)
        #expect(transport.isComplete, "\(transport.failures)")
        #expect(session.encryptionKey == (try SymmetricKey(.tripleDES, bytes: AppendixD.ksEnc)))
        #expect(session.macKey == (try SymmetricKey(.tripleDES, bytes: AppendixD.ksMac)))
        #expect(session.sendSequenceCounter == AppendixD.ssc)
    }

    @Test func aRefusedExternalAuthenticateIsAccessDeniedNamingBAC() throws {
        for refusal in ["6988", "6300", "6982"] {
            let transport = ScriptedTransport([
                .exchange(AppendixD.getChallenge, AppendixD.getChallengeResponse),
                .exchange(AppendixD.externalAuthenticate, refusal),
            ])
            let error = #expect(throws: AccessControlError.self) {
                try BasicAccessControl.establish(
                    accessKey: AppendixD.accessKey(), over: transport, random: AppendixD.fixedRandom)
            }
            #expect(error?.code == .accessDenied)
            #expect(error?.accessProtocol == .bac)
            #expect(error?.statusWord == StatusWord(UInt16(refusal, radix: 16) ?? 0))
            #expect(error?.description.hasPrefix("BAC failed") == true)
        }
    }

    /// Only a rejected password (6300, 63Cx, 6982, the ePass emulator's 6988) blames the MRZ; a chip that
    /// does not run BAC (6D00, 6E00, 6A81) is `.notSupported`, any other refusal a protocol
    /// violation, neither naming the MRZ.
    @Test func onlyARejectedPasswordBlamesTheMRZ() throws {
        let cases: [(UInt16, AccessControlError.Code)] = [
            (0x6300, .accessDenied), (0x63C2, .accessDenied), (0x6982, .accessDenied), (0x6988, .accessDenied),
            (0x6D00, .notSupported), (0x6E00, .notSupported), (0x6A81, .notSupported),
            (0x6985, .protocolViolation), (0x6A80, .protocolViolation),
        ]
        for (status, code) in cases {
            let transport = ScriptedTransport([
                .exchange(AppendixD.getChallenge, AppendixD.getChallengeResponse),
                .exchange(AppendixD.externalAuthenticate, String(status, radix: 16, uppercase: true)),
            ])
            let error = #expect(throws: AccessControlError.self) {
                try BasicAccessControl.establish(
                    accessKey: AppendixD.accessKey(), over: transport, random: AppendixD.fixedRandom)
            }
            #expect(error?.code == code, "\(String(status, radix: 16)): \(String(describing: error))")
            #expect(error?.reason.contains("check the document number") == (code == .accessDenied))
        }
        let refusedChallenge = ScriptedTransport([.exchange(AppendixD.getChallenge, "6D00")])
        let error = #expect(throws: AccessControlError.self) {
            try BasicAccessControl.establish(accessKey: AppendixD.accessKey(), over: refusedChallenge)
        }
        #expect(error?.code == .notSupported)
    }

    @Test func aWrongChipMACIsRejectedBeforeDecryption() throws {
        var answer = hex(AppendixD.externalAuthenticateResponse)
        answer[35] ^= 0x20  // inside M_IC
        let transport = ScriptedTransport([
            .exchange(AppendixD.getChallenge, AppendixD.getChallengeResponse),
            .exchange(hex(AppendixD.externalAuthenticate), answer),
        ])
        let error = #expect(throws: AccessControlError.self) {
            try BasicAccessControl.establish(
                accessKey: AppendixD.accessKey(), over: transport, random: AppendixD.fixedRandom)
        }
        #expect(error?.code == .chipVerificationFailed)
    }

    @Test func theChipMustEchoBothNonces() throws {
        let kEnc = try SymmetricKey(.tripleDES, bytes: AppendixD.kEnc)
        let kMac = try SymmetricKey(.tripleDES, bytes: AppendixD.kMac)
        let chipNonce = hex("4608F91988702212")
        let kIC = hex("0B4F80323EB3191CB04970CB4052790B")
        var wrongEcho = AppendixD.rndIFD
        wrongEcho[7] ^= 1
        for plaintext in [chipNonce + wrongEcho + kIC, hex("0000000000000000") + AppendixD.rndIFD + kIC] {
            let encrypted = try kEnc.encryptCBC(plaintext, iv: [UInt8](repeating: 0, count: 8))
            let transport = ScriptedTransport([
                .exchange(AppendixD.getChallenge, AppendixD.getChallengeResponse),
                .exchange(
                    hex(AppendixD.externalAuthenticate), encrypted + (try kMac.retailMAC(encrypted)) + [0x90, 0x00]),
            ])
            let error = #expect(throws: AccessControlError.self) {
                try BasicAccessControl.establish(
                    accessKey: AppendixD.accessKey(), over: transport, random: AppendixD.fixedRandom)
            }
            #expect(error?.code == .chipVerificationFailed)
        }
    }

    @Test func malformedChallengesAndAnswersAreProtocolViolations() throws {
        let shortChallenge = ScriptedTransport([.exchange(AppendixD.getChallenge, "46089000")])
        let first = #expect(throws: AccessControlError.self) {
            try BasicAccessControl.establish(accessKey: AppendixD.accessKey(), over: shortChallenge)
        }
        #expect(first?.code == .protocolViolation)
        let shortAnswer = ScriptedTransport([
            .exchange(AppendixD.getChallenge, AppendixD.getChallengeResponse),
            .exchange(AppendixD.externalAuthenticate, "46B9342A9000"),
        ])
        let second = #expect(throws: AccessControlError.self) {
            try BasicAccessControl.establish(
                accessKey: AppendixD.accessKey(), over: shortAnswer, random: AppendixD.fixedRandom)
        }
        #expect(second?.code == .protocolViolation)
    }

    @Test func aCANCannotRunBAC() throws {
        let transport = ScriptedTransport([])
        let error = #expect(throws: AccessControlError.self) {
            try BasicAccessControl.establish(accessKey: AccessPassword.can(value: "123456"), over: transport)
        }
        #expect(error?.code == .notSupported)
        #expect(transport.playedSteps == 0)
    }

    @Test func theLogRedactsTheAuthenticationCryptograms() throws {
        let link = LoggingTransport(
            ScriptedTransport([
                .exchange(AppendixD.getChallenge, AppendixD.getChallengeResponse),
                .exchange(AppendixD.externalAuthenticate, AppendixD.externalAuthenticateResponse),
            ]))
        _ = try BasicAccessControl.establish(
            accessKey: AppendixD.accessKey(), over: link, random: AppendixD.fixedRandom)
        let text = link.log.entries.map(\.description).joined(separator: "\n")
        #expect(!text.contains("72 C2 9C 23"))
        #expect(!text.contains("46 B9 34 2A"))
        #expect(text.contains("<40 bytes redacted>"))
    }
}
