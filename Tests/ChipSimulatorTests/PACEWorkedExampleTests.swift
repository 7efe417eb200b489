import ASN1
import Arithmetic
import CryptoPrimitives
import ICAO
import Secrets
import SecureMessaging
import TestSupport
import Testing
import Transport

@testable import ChipSimulator

/// The chip's side of ICAO 9303-11 App. G (Generic Mapping, ECDH and DH), H (Integrated Mapping)
/// and I (Chip Authentication Mapping): the terminal's published commands go in, the chip's
/// random source replays the example's nonce s and private keys, and the chip's answers (z, its
/// mapping key, its ephemeral key, T_IC, A_IC) must be the published ones. Values from
/// ../shared/vectors/icao9303-11.json (`pace_gm_ecdh_brainpoolP256r1`, `pace_gm_dh_1024`,
/// `pace_im_ecdh`, `pace_im_dh`, `pace_cam_ecdh`).
@Suite struct PACEWorkedExampleTests {
    static let efCom = hex("60145F0104303130365F36063034303030305C026175")

    static func chip(
        _ oid: String, parameters: StandardizedDomainParameters, credentials: Credentials, random: [UInt8]
    ) -> SimulatedChip {
        var credentials = credentials
        let paceProtocol = PACEProtocol(ASN1ObjectIdentifier(stringLiteral: oid))!
        credentials.paceOffers = [PACEOffer(paceProtocol, parameters: parameters)!]
        var files = ChipFiles()
        files.com = efCom
        return SimulatedChip(
            configuration: ChipConfiguration(files: files, credentials: credentials), random: .replaying(random))
    }

    static func exchange(_ chip: SimulatedChip, _ command: String) throws -> [UInt8] {
        try chip.transmit(CommandAPDU(encoded: hex(command))).encoded
    }

    /// EF.COM read under the session PACE opened, from SSC zero with the example's KS_Enc, KS_MAC.
    static func readCOM(_ chip: SimulatedChip, encryption: String, mac: String) throws {
        var session = try SecureMessagingSession(
            encryptionKey: SymmetricKey(.aes128, bytes: hex(encryption)), macKey: SymmetricKey(.aes128, bytes: hex(mac))
        )
        try readCOM(chip, &session)
    }

    static func readCOM(_ chip: SimulatedChip, _ session: inout SecureMessagingSession) throws {
        for command in [
            CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: ApplicationIdentifier.emrtd),
            CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01, 0x1E]),
        ] {
            #expect(try session.unwrap(try chip.transmit(try session.wrap(command))).statusWord == .success)
        }
        let read = try session.unwrap(
            try chip.transmit(try session.wrap(CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 256))))
        #expect(read.data == efCom)
    }

    static let exampleMRZ = MRZPassword(documentNumber: "T22000129", dateOfBirth: "640812", dateOfExpiry: "101031")

    /// App. G.1: ECDH Generic Mapping on brainpoolP256r1, AES-128, MRZ password.
    @Test func genericMappingECDH() throws {
        let chip = Self.chip(
            "0.4.0.127.0.7.2.2.4.2.2", parameters: .brainpoolP256r1, credentials: Credentials(mrz: Self.exampleMRZ),
            random: hex("3F00C4D39D153F2B2A214A078D899B22")  // s
                + hex("498FF49756F2DC1587840041839A85982BE7761D14715FB091EFA7BCE9058560")  // SK_Map,IC
                + hex("107CF58696EF6155053340FD633392BA81909DF7B9706F226F32086C7AFF974A"))  // SK_IC
        // EF.CardAccess is the example's PACEInfo in a SET.
        #expect(try Self.exchange(chip, "00A4020C02011C") == hex("9000"))
        #expect(try Self.exchange(chip, "00B0000000") == hex("31143012060A04007F0007020204020202010202010D9000"))
        #expect(try Self.exchange(chip, "0022C1A412800A04007F0007020204020283010184010D") == hex("9000"))
        #expect(try Self.exchange(chip, "10860000027C0000") == hex("7C12801095A3A016522EE98D01E76CB6B98B42C39000"))
        #expect(
            try Self.exchange(
                chip,
                "10860000457C438141047ACF3EFC982EC45565A4B155129EFBC74650DCBFA6362D896FC70262E0C2CC5E544552DCB6725218799115B55C9BAA6D9F6BC3A9618E70C25AF71777A9C4922D00"
            )
                == hex(
                    "7C43824104824FBA91C9CBE26BEF53A0EBE7342A3BF178CEA9F45DE0B70AA601651FBA3F5730D8C879AAA9C9F73991E61B58F4D52EB87A0A0C709A49DC63719363CCD13C549000"
                ))
        #expect(
            try Self.exchange(
                chip,
                "10860000457C438341042DB7A64C0355044EC9DF190514C625CBA2CEA48754887122F3A5EF0D5EDD301C3556F3B3B186DF10B857B58F6A7EB80F20BA5DC7BE1D43D9BF850149FBB3646200"
            )
                == hex(
                    "7C438441049E880F842905B8B3181F7AF7CAA9F0EFB743847F44A306D2D28C1D9EC65DF6DB7764B22277A2EDDC3C265A9F018F9CB852E111B768B326904B59A0193776F0949000"
                ))
        #expect(try Self.exchange(chip, "008600000C7C0A8508C2B0BD78D94BA86600") == hex("7C0A86083ABB9674BCE93C089000"))
        try Self.readCOM(chip, encryption: "F5F0E35C0D7161EE6724EE513A0D9A7F", mac: "FE251C7858B356B24514B3BD5F4297D1")
    }

    /// App. G.1 again with the MSE:Set AT that leaves out DO'84' (one offer, so no ambiguity).
    @Test func genericMappingWithoutParameterReference() throws {
        let chip = Self.chip(
            "0.4.0.127.0.7.2.2.4.2.2", parameters: .brainpoolP256r1, credentials: Credentials(mrz: Self.exampleMRZ),
            random: hex("3F00C4D39D153F2B2A214A078D899B22"))
        #expect(try Self.exchange(chip, "0022C1A40F800A04007F00070202040202830101") == hex("9000"))
        #expect(try Self.exchange(chip, "10860000027C0000") == hex("7C12801095A3A016522EE98D01E76CB6B98B42C39000"))
    }

    /// App. G.2: DH Generic Mapping on the 1024-bit MODP group (ID 0), AES-128, MRZ password.
    @Test func genericMappingDH() throws {
        let chip = Self.chip(
            "0.4.0.127.0.7.2.2.4.1.2", parameters: .modp1024Subgroup160, credentials: Credentials(mrz: Self.exampleMRZ),
            random: hex("FA5B7E3E49753A0DB9178B7B9BD898C8") + hex("66DDAFEAC1609CB5B963BB0CB3FF8B3E047F336C")
                + hex("A5B780126B7C980E9FCEA1D4539DA1D27C342DFA"))
        #expect(try Self.exchange(chip, "0022C1A40F800A04007F00070202040102830101") == hex("9000"))
        #expect(try Self.exchange(chip, "10860000027C0000") == hex("7C128010854D8DF5827FA6852D1A4FA701CDDDCA9000"))
        #expect(
            try Self.exchange(
                chip,
                "10860000867C818381818023FB3749EA030D2A25B278D2A562047ADE3F01B74F17A15402CB7352CA7D2B3EB71C343DB13D1DEBCE9A3666DBCFC920B49174A602CB47965CAA73DC702489A44D41DB914DE9613DC5E98C94160551C0DF86274B9359BC0490D01B03AD54022DCB4F57FAD6322497D7A1E28D46710F461AFE710FBBBC5F8BA166F4311975EC6C00"
            )
                == hex(
                    "7C818382818078879F57225AA8080D52ED0FC890A4B25336F699AA89A2D3A189654AF70729E623EA5738B26381E4DA19E004706FACE7B235C2DBF2F38748312F3C98C2DD4882A41947B324AA1259AC22579DB93F7085655AF30889DBB845D9E6783FE42C9F2449400306254C8AE8EE9DD812A804C0B66E8CAFC14F84D8258950A91B44126EE69000"
                ))
        #expect(
            try Self.exchange(
                chip,
                "10860000867C8183838180907D89E2D425A178AA81AF4A7774EC8E388C115CAE67031E85EECE520BD911551B9AE4D04369F29A02626C86FBC6747CC7BC352645B6161A2A42D44EDA80A08FA8D61B76D3A154AD8A5A51786B0BC07147057871A922212C5F67F43173172236B7747D1671E6D692A3C7D40A0C3C5CE397545D015C175EB5130551EDBC2EE5D400"
            )
                == hex(
                    "7C8183848180075693D9AE941877573E634B6E644F8E60AF17A0076B8B123D9201074D36152BD8B3A213F53820C42ADC79AB5D0AEEC3AEFB91394DA476BD97B9B14D0A65C1FC71A0E019CB08AF55E1F729005FBA7E3FA5DC41899238A250767A6D46DB974064386CD456743585F8E5D90CC8B4004B1F6D866C79CE0584E49687FF61BC29AEA19000"
                ))
        #expect(try Self.exchange(chip, "008600000C7C0A8508B46DD9BD4D98381F00") == hex("7C0A8608917F37B5C0E6D8D19000"))
        try Self.readCOM(chip, encryption: "2F7F46ADCC9E7E521B45D192FAFA9126", mac: "805A1D27D45A5116F73C54469462B7D8")
    }

    /// App. H.1: ECDH Integrated Mapping on brainpoolP256r1, AES-128. The example's K_π is that of
    /// "123456", so the chip holds it as its CAN and the MSE:Set AT names the CAN (the transcript's
    /// names the MRZ). The chip answers step 2 with an empty DO'82' (7C028200, §4.4.5.2.2), where
    /// the transcript shows a bare 9000.
    @Test func integratedMappingECDH() throws {
        let chip = Self.chip(
            "0.4.0.127.0.7.2.2.4.4.2", parameters: .brainpoolP256r1,
            credentials: Credentials(can: CardAccessNumber("123456")),
            random: hex("2923BE84E16CD6AE529049F1F1BBE9EB")
                + hex("107CF58696EF6155053340FD633392BA81909DF7B9706F226F32086C7AFF974A"))
        #expect(try Self.exchange(chip, "0022C1A40F800A04007F00070202040402830102") == hex("9000"))
        #expect(try Self.exchange(chip, "10860000027C0000") == hex("7C128010143DC40C08C8E891FBED7DEDB92B64AD9000"))
        #expect(try Self.exchange(chip, "10860000147C1281105DD4CBFC96F5453B130D890A1CDBAE3200") == hex("7C0282009000"))
        #expect(
            try Self.exchange(
                chip,
                "10860000457C4383410489CBA23FFE96AA18D824627C3E934E54A9FD0B87A95D1471DC1C0ABFDCD640D46755DE9B7B778280B6BEBD57439ADFEB0E21FD4ED6DF42578C13418A59B34C3700"
            )
                == hex(
                    "7C4384410467F78E5F7F7686082B293E8D087E056916D0F74BC01A5F8957D0DE45691E51E8932B69A962B52A0985AD2C0A271EE6A13A8ADDDCD1A3A994B9DED257F4D227539000"
                ))
        #expect(try Self.exchange(chip, "008600000C7C0A8508450F02B86F6A090900") == hex("7C0A860875D4D96E8D5B03089000"))
        try Self.readCOM(chip, encryption: "0D3FEB33251A6370893D62AE8DAAF51B", mac: "B01E89E3D9E8719E586B50B4A7506E0B")
    }

    /// The pseudo-random function of Integrated Mapping: App. H.1's R(s, t) (three AES-128 blocks
    /// for a 256-bit prime) and App. H.2's (nine blocks for the 1024-bit group).
    @Test func integratedMappingPseudoRandomFunction() throws {
        #expect(
            try PACEPseudoRandomFunction.output(
                nonce: SecretBytes(hex("2923BE84E16CD6AE529049F1F1BBE9EB")),
                terminalNonce: hex("5DD4CBFC96F5453B130D890A1CDBAE32"), cipher: .aes128, fieldBits: 256)
                == hex(
                    "E4447E2DFB3586BAC05DDB00156B57FBB2179A3949294C97254189800C517BAA8DA0FF397ED8C445D3E421E4FEB57322"))
        #expect(
            try PACEPseudoRandomFunction.output(
                nonce: SecretBytes(hex("FA5B7E3E49753A0DB9178B7B9BD898C8")),
                terminalNonce: hex("B3A6DB3C870C3E99245E0D1C06B747DE"), cipher: .aes128, fieldBits: 1024)
                == hex(
                    "EAB98D13E09052952AA729907C3C946184DEA0FE74AD2B3AF506F0A83018459C38099CD1F7FF4EA0A078DB1FAC1365505E3DC85500EF95E20B4EEF2E88489233BEE0546B472F994B618D168702406791DEEF3CB4810932EC278F3533FDB860EB4835C36FA4F1BF3FA0B828A718C96BDE88FBA38A3E6C35AAA10959251EB5FC710FC187258995944C0F926E249373F485"
                ))
    }

    /// R(s, t) with a one-block s under AES-192 and AES-256, as chips in the field draw it: the
    /// 128-bit constants, each derived key E's 16-byte output keying AES-128. Expected values from
    /// Python's `cryptography` over the same construction (it reproduces App. H.1 first).
    @Test func integratedMappingPseudoRandomFunctionWithOneBlockNonce() throws {
        let s = SecretBytes(hex("2923BE84E16CD6AE529049F1F1BBE9EB"))
        let t = hex("5DD4CBFC96F5453B130D890A1CDBAE32") + hex("2923BE84E16CD6AE529049F1F1BBE9EB")
        #expect(
            try PACEPseudoRandomFunction.output(
                nonce: s, terminalNonce: Array(t.prefix(24)), cipher: .aes192, fieldBits: 256)
                == hex(
                    "64653B87A1BC5D7CA602500BFABDA068C5E827538500C2CCA2A11C014C1FC99D0BBC4E49F602642D6E046AEE3A2FFA8C"))
        #expect(
            try PACEPseudoRandomFunction.output(nonce: s, terminalNonce: t, cipher: .aes256, fieldBits: 256)
                == hex(
                    "C5582CBDFDF0402D847E37E64FC453D877A0F9FF071EA3F1DBD89F114351694B30A0A09F27D6273C63481274761E1610"))
    }

    /// App. H.2: DH Integrated Mapping on group 0, AES-128, CAN "123456". The example does not
    /// give the chip's ephemeral private key, so the chip draws its own; the example's terminal
    /// (its t and SK_IFD) completes the run against it, and z is the published one.
    @Test func integratedMappingDH() throws {
        let nonce = hex("FA5B7E3E49753A0DB9178B7B9BD898C8")
        // s for the published exchange, s again for the terminal's run after a reset, SK_IC.
        let chip = Self.chip(
            "0.4.0.127.0.7.2.2.4.3.2", parameters: .modp1024Subgroup160,
            credentials: Credentials(can: CardAccessNumber("123456")),
            random: nonce + nonce + hex("1234567890ABCDEF1234567890ABCDEF12345678"))
        #expect(try Self.exchange(chip, "0022C1A40F800A04007F00070202040302830102") == hex("9000"))
        #expect(try Self.exchange(chip, "10860000027C0000") == hex("7C1280109ABB8864CA0FF1551E620D1EF4E135109000"))
        chip.reset()
        var terminal = PACETestTerminal(
            paceProtocol: PACEProtocol(ASN1ObjectIdentifier(stringLiteral: "0.4.0.127.0.7.2.2.4.3.2"))!,
            parameters: .modp1024Subgroup160, password: PACETestTerminal.can("123456"), passwordReference: 2)
        terminal.terminalNonce = hex("B3A6DB3C870C3E99245E0D1C06B747DE")
        terminal.ephemeralPrivateKey = BigInt(
            bytes: hex(
                "4BD0E54740F9A028E6A515BFDAF967848C4F5F5FFF65AA0915947FFD1A0DF2FA6981271BC905F3551457B7E03AC3B8066DE4AA406C1171FB43DD939C4BA16175103BA3DEE16419AA248118F90CC36A3D6F4C373652E0C3CCE7F0F1D0C5425B3600F0F0D6A67F004C8BBA33F2B4733C7252445C1DFC4F1107203F71D2EFB28161"
            ))
        var outcome = try terminal.run(on: chip)
        try Self.readCOM(chip, &outcome.session)
    }

    /// App. I.1: ECDH Chip Authentication Mapping on brainpoolP256r1, AES-128, with the chip's
    /// static key whose public half the example gives. The chip replays s and SK_Map,IC (so z and
    /// its mapping key are the published ones); the example leaves out its ephemeral private key,
    /// so the example's terminal completes the run and A_IC decrypts to the published CA_IC.
    @Test func chipAuthenticationMapping() throws {
        let staticKey = try KeyAgreementKeyPair(
            privateKey: hex("86C88A4579CE48135878E6348A734B5D47CE5BC1E54C0E8978687B49FDE2E2C2"), on: .brainpoolP256r1)
        #expect(
            staticKey.publicKey
                == hex(
                    "041872709494399E7470A6431BE25E83EEE24FEA568C2ED28DB48E05DB3A610DC884D256A40E35EFCB59BF6753D3A489D28C7A4D973C2DA138A6E7A4A08F68E16F"
                ))
        let mrz = MRZPassword(documentNumber: "C11T002JM", dateOfBirth: "960812", dateOfExpiry: "231031")
        let chip = Self.chip(
            "0.4.0.127.0.7.2.2.4.6.2", parameters: .brainpoolP256r1,
            credentials: Credentials(mrz: mrz, chipAuthenticationKeys: [ChipAuthenticationKey(staticKey)]),
            random: hex("658B860BC94DF6F044FCE6D5C82CF8E5")
                + hex("9E56A6B59C95D06ECE5CD10F983BB2F4F1943528E577F23881D89D8C3BBEE0AA")
                + hex("2B7E151628AED2A6ABF7158809CF4F3C2B7E151628AED2A6ABF7158809CF4F3C"))
        var terminal = PACETestTerminal(
            paceProtocol: PACEProtocol(ASN1ObjectIdentifier(stringLiteral: "0.4.0.127.0.7.2.2.4.6.2"))!,
            parameters: .brainpoolP256r1, password: PACETestTerminal.mrz("C11T002JM496081222310314"),
            passwordReference: 1)
        terminal.mappingPrivateKey = BigInt(
            bytes: hex("5D8BB87BD74D985A4B7D4325B9F7B976FE835122773400798914AA22738135CC"))
        terminal.ephemeralPrivateKey = BigInt(
            bytes: hex("76ECFDAA9841C323A3F5FC5E88B88DB3EFF7E35EBF57A7E6946CB630006C2120"))
        var outcome = try terminal.run(on: chip)
        #expect(
            outcome.chipMappingKey
                == hex(
                    "04A234236AA9B9621E8EFB73B5245C0E09D2576E5277183C1208BDD55280CAE8B304F365713A356E65A451E165ECC9AC0AC46E3771342C8FE5AEDD092685338E23"
                ))
        #expect(
            outcome.chipAuthenticationData == hex("85DC3FA93D0952BFA82F5FD189EE75BD82F11D1F0B8ED4BF5319AC9B53C426B3"))
        try Self.readCOM(chip, &outcome.session)
    }

    /// App. I.1's A_IC from its KS_Enc, static key and SK_Map,IC, byte for byte.
    @Test func encryptedChipAuthenticationData() throws {
        let staticKey = try KeyAgreementKeyPair(
            privateKey: hex("86C88A4579CE48135878E6348A734B5D47CE5BC1E54C0E8978687B49FDE2E2C2"), on: .brainpoolP256r1)
        let keys = try #require(
            SessionKeys(
                encryption: SymmetricKey(.aes128, bytes: hex("0A9DA4DB03BDDE39FC5202BC44B2E89E")),
                mac: SymmetricKey(.aes128, bytes: hex("4B1C06491ED5140CA2B537D344C6C0B1"))))
        #expect(
            try PACEHandler.encryptedChipAuthenticationData(
                staticKey: staticKey,
                mappingPrivateKey: BigInt(
                    bytes: hex("9E56A6B59C95D06ECE5CD10F983BB2F4F1943528E577F23881D89D8C3BBEE0AA")),
                keys: keys)
                == hex(
                    "1EEA964DAAE372AC990E3EFDE6333353BFC89A6704D93DA8798CF77F5B7A54BD10CBA372B42BE0B9B5F28AA8DE2F4F92"))
    }
}
