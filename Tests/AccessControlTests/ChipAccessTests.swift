import LDS
import MRZ
import Testing
import Transport

@testable import AccessControl

/// The whole chip access step against ICAO 9303-11 App. D.3 and D.4: the reader's commands after
/// BAC reproduce the published secure messaging transcript byte for byte.
@Suite struct ChipAccessTests {
    static let selectMasterFile = "00A4000C023F00"
    static let selectCardAccess = "00A4020C02011C"
    static let selectApplication = "00A4040C07A0000002471001"

    @Test func opensWithBACAndReadsEFCOMAsAppendixD4() throws {
        let transport = ScriptedTransport(
            [
                .exchange(Self.selectMasterFile, "9000"),
                .exchange(Self.selectCardAccess, "6A82"),
                .exchange(Self.selectApplication, "9000"),
                .exchange(AppendixD.getChallenge, AppendixD.getChallengeResponse),
                .exchange(AppendixD.externalAuthenticate, AppendixD.externalAuthenticateResponse),
            ] + AppendixD.secureMessagingTranscript.map { .exchange($0.command, $0.response) })
        var session = try ChipAccess.open(transport, accessKey: AppendixD.accessKey(), random: AppendixD.fixedRandom)
        #expect(session.access == .bac)
        #expect(session.cardAccess == nil)
        #expect(session.warnings.isEmpty)
        // D.4 reads with SELECT and the header first, as `.selectThenHeader` does.
        session.fileReader = FileReader(channel: session.fileReader.channel, strategy: .selectThenHeader)
        #expect(session.fileReader.read(.com) == .read(AppendixD.efCom))
        #expect(transport.isComplete, "\(transport.failures)")
    }

    @Test func readsEFCardAccessFromTheMasterFileFirst() throws {
        let cardAccess = tlvFile(tag: 0x31, valueLength: 20)
        let transport = ScriptedTransport([
            .exchange("00A4000C023F00", "6A86"),  // a chip that wants the other form of SELECT MF
            .exchange("00A4000C", "9000"),
            exchange(select(0x011C), ok()),
            exchange(readBinary(0, 4), ok(Array(cardAccess[0..<4]))),
            exchange(readBinary(4, 18), ok(Array(cardAccess[4...]))),
            .exchange(Self.selectApplication, "9000"),
            .exchange(AppendixD.getChallenge, AppendixD.getChallengeResponse),
            .exchange(AppendixD.externalAuthenticate, AppendixD.externalAuthenticateResponse),
        ])
        let session = try ChipAccess.open(transport, accessKey: AppendixD.accessKey(), random: AppendixD.fixedRandom)
        #expect(session.cardAccess == cardAccess)
        #expect(session.warnings.count == 1)
        #expect(transport.isComplete, "\(transport.failures)")
    }

    @Test(arguments: ["6A82", "6283", "6982"])
    func theseAnswersToEFCardAccessMeanNoPACE(answer: String) throws {
        let transport = ScriptedTransport([
            .exchange(Self.selectMasterFile, "9000"),
            .exchange(Self.selectCardAccess, answer),
            .exchange(Self.selectApplication, "9000"),
            .exchange(AppendixD.getChallenge, AppendixD.getChallengeResponse),
            .exchange(AppendixD.externalAuthenticate, AppendixD.externalAuthenticateResponse),
        ])
        let session = try ChipAccess.open(transport, accessKey: AppendixD.accessKey(), random: AppendixD.fixedRandom)
        #expect(session.cardAccess == nil)
        #expect(transport.isComplete, "\(transport.failures)")
    }

    @Test func aWrongMRZIsAnAccessControlErrorNamingBAC() throws {
        let wrongKey = try AccessPassword.mrz(
            documentNumber: "L898902C<", dateOfBirth: "690806", dateOfExpiry: "940624")
        let transport = ScriptedTransport([
            .exchange(Self.selectMasterFile, "9000"),
            .exchange(Self.selectCardAccess, "6A82"),
            .exchange(Self.selectApplication, "9000"),
            .exchange(AppendixD.getChallenge, AppendixD.getChallengeResponse),
            .respond("EXTERNAL AUTHENTICATE") { command throws(TransportError) in
                guard command.ins == 0x82, command.data.count == 40 else {
                    throw .Unexpected(detail: "not EXTERNAL AUTHENTICATE")
                }
                return ResponseAPDU(statusWord: .secureMessagingDataObjectsIncorrect)
            },
        ])
        let error = #expect(throws: AccessControlError.self) {
            try ChipAccess.open(transport, accessKey: wrongKey, random: AppendixD.fixedRandom)
        }
        #expect(error?.code == .accessDenied)
        #expect(error?.accessProtocol == .bac)
        #expect(error?.description.contains("BAC") == true)
    }

    @Test func aChipWithoutTheApplicationIsNotSupported() throws {
        let transport = ScriptedTransport([
            .exchange(Self.selectMasterFile, "9000"),
            .exchange(Self.selectCardAccess, "6A82"),
            .exchange(Self.selectApplication, "6A82"),
        ])
        let error = #expect(throws: AccessControlError.self) {
            try ChipAccess.open(transport, accessKey: AppendixD.accessKey())
        }
        #expect(error?.code == .notSupported)
        #expect(transport.isComplete)
    }

    @Test func aLostCardIsATransportError() throws {
        let transport = ScriptedTransport([
            .exchange(Self.selectMasterFile, "9000"),
            .failure(Self.selectCardAccess, .TagLost),
        ])
        let error = #expect(throws: AccessControlError.self) {
            try ChipAccess.open(transport, accessKey: AppendixD.accessKey())
        }
        #expect(error?.code == .transport)
        #expect(error?.transportError == .TagLost)
    }
}
