import ASN1
import CryptoPrimitives
import ICAO
import LDS
import MRZ
import Secrets
import SecureMessaging
import TestSupport
import Transport

@testable import AccessControl

/// A published PACE run (ICAO 9303-11 Appendices G, H and I; the same values as
/// `../shared/vectors/icao9303-11.json`): the terminal's fixed random bytes, the commands it must
/// send with the chip's answers, and the session keys.
///
/// The examples' own MSE:Set AT omits DO'84'; this reader always names the parameter ID, so its
/// MSE:Set AT is the published one plus `84 01 <ID>` (G.1's equals the transcript gmrtd
/// publishes), and the Appendix H examples, whose password is "123456", are run with it as a CAN
/// (`83 01 02`). Every GENERAL AUTHENTICATE is the published one, byte for byte.
struct WorkedExample: Sendable {
    let protocolIdentifier: ASN1ObjectIdentifier
    var parameterId: Int?
    let accessKey: AccessPassword
    /// The terminal's random bytes in the order the reader draws them: the mapping's private key
    /// (GM, CAM) or nonce t (IM), then the key agreement's private key.
    let random: [UInt8]
    var setAuthenticationTemplate: String
    /// GENERAL AUTHENTICATE steps 1–4: command and answer, hex.
    let generalAuthenticate: [(command: String, response: String)]
    let ksEnc: [UInt8]
    let ksMac: [UInt8]
    /// PACEDomainParameterInfos EF.CardAccess holds beside the PACEInfo (a chip's own parameters).
    var domainParameterInfos: [[UInt8]] = []

    var offer: PACEOffer {
        // The examples' OIDs are all id-PACE protocols 9303-11 defines.
        PACEOffer(paceProtocol: PACEProtocol(protocolIdentifier)!, parameterId: parameterId)
    }

    /// `PACEInfo ::= SEQUENCE { protocol, version 2, parameterId OPTIONAL }` (and any PACEDomainParameterInfo)
    /// in a SET, as EF.CardAccess holds them.
    var cardAccess: [UInt8] {
        DER.set(
            [
                DER.sequence(
                    [DER.objectIdentifier(protocolIdentifier), DER.integer(2)]
                        + (parameterId.map { [DER.integer($0)] } ?? []))
            ] + domainParameterInfos)
    }

    func securityInfos() throws -> SecurityOptions { try SecurityOptions(cardAccess, kind: .cardAccess) }

    /// MSE:Set AT and the four steps as the chip answered them.
    var steps: [ScriptedTransport.Step] {
        [.exchange(setAuthenticationTemplate, "9000")] + generalAuthenticate.map { .exchange($0.command, $0.response) }
    }

    func session() throws -> SecureMessagingSession {
        try SecureMessagingSession(
            encryptionKey: SymmetricKey(offer.paceProtocol.cipher, bytes: ksEnc),
            macKey: SymmetricKey(offer.paceProtocol.cipher, bytes: ksMac))
    }
}

extension WorkedExample {
    /// App. G.1: Generic Mapping, ECDH on brainpoolP256r1, AES-128, MRZ password.
    static let genericMappingECDH = WorkedExample(
        protocolIdentifier: "0.4.0.127.0.7.2.2.4.2.2", parameterId: 13,
        accessKey: try! .mrz(documentNumber: "T22000129", dateOfBirth: "640812", dateOfExpiry: "101031"),
        random: hex("7F4EF07B9EA82FD78AD689B38D0BC78CF21F249D953BC46F4C6E19259C010F99")
            + hex("A73FB703AC1436A18E0CFA5ABB3F7BEC7A070E7A6788486BEE230C4A22762595"),
        setAuthenticationTemplate: "0022C1A412800A04007F0007020204020283010184010D",
        generalAuthenticate: [
            (
                "10860000027C0000",
                "7C12801095A3A016522EE98D01E76CB6B98B42C39000"
            ),
            (
                "10860000457C438141047ACF3EFC982EC45565A4B155129EFBC74650DCBFA6362D896FC70262E0C2"
                    + "CC5E544552DCB6725218799115B55C9BAA6D9F6BC3A9618E70C25AF71777A9C4922D00",
                "7C43824104824FBA91C9CBE26BEF53A0EBE7342A3BF178CEA9F45DE0B70AA601651FBA3F5730D8C8"
                    + "79AAA9C9F73991E61B58F4D52EB87A0A0C709A49DC63719363CCD13C549000"
            ),
            (
                "10860000457C438341042DB7A64C0355044EC9DF190514C625CBA2CEA48754887122F3A5EF0D5EDD"
                    + "301C3556F3B3B186DF10B857B58F6A7EB80F20BA5DC7BE1D43D9BF850149FBB3646200",
                "7C438441049E880F842905B8B3181F7AF7CAA9F0EFB743847F44A306D2D28C1D9EC65DF6DB7764B2"
                    + "2277A2EDDC3C265A9F018F9CB852E111B768B326904B59A0193776F0949000"
            ),
            (
                "008600000C7C0A8508C2B0BD78D94BA86600",
                "7C0A86083ABB9674BCE93C089000"
            ),
        ],
        ksEnc: hex("F5F0E35C0D7161EE6724EE513A0D9A7F"), ksMac: hex("FE251C7858B356B24514B3BD5F4297D1"))

    /// App. G.2: Generic Mapping, DH on the 1024-bit MODP group (parameters 0), AES-128, MRZ password.
    static let genericMappingDH = WorkedExample(
        protocolIdentifier: "0.4.0.127.0.7.2.2.4.1.2", parameterId: 0,
        accessKey: try! .mrz(documentNumber: "T22000129", dateOfBirth: "640812", dateOfExpiry: "101031"),
        random: hex("5265030F751F4AD18B08AC565FC7AC952E41618D") + hex("89CCD99B0E8D3B1F11E1296DCA68EC53411CF2CA"),
        setAuthenticationTemplate: "0022C1A412800A04007F00070202040102830101840100",
        generalAuthenticate: [
            (
                "10860000027C0000",
                "7C128010854D8DF5827FA6852D1A4FA701CDDDCA9000"
            ),
            (
                "10860000867C818381818023FB3749EA030D2A25B278D2A562047ADE3F01B74F17A15402CB7352CA"
                    + "7D2B3EB71C343DB13D1DEBCE9A3666DBCFC920B49174A602CB47965CAA73DC702489A44D41DB914D"
                    + "E9613DC5E98C94160551C0DF86274B9359BC0490D01B03AD54022DCB4F57FAD6322497D7A1E28D46"
                    + "710F461AFE710FBBBC5F8BA166F4311975EC6C00",
                "7C818382818078879F57225AA8080D52ED0FC890A4B25336F699AA89A2D3A189654AF70729E623EA"
                    + "5738B26381E4DA19E004706FACE7B235C2DBF2F38748312F3C98C2DD4882A41947B324AA1259AC22"
                    + "579DB93F7085655AF30889DBB845D9E6783FE42C9F2449400306254C8AE8EE9DD812A804C0B66E8C"
                    + "AFC14F84D8258950A91B44126EE69000"
            ),
            (
                "10860000867C8183838180907D89E2D425A178AA81AF4A7774EC8E388C115CAE67031E85EECE520B"
                    + "D911551B9AE4D04369F29A02626C86FBC6747CC7BC352645B6161A2A42D44EDA80A08FA8D61B76D3"
                    + "A154AD8A5A51786B0BC07147057871A922212C5F67F43173172236B7747D1671E6D692A3C7D40A0C"
                    + "3C5CE397545D015C175EB5130551EDBC2EE5D400",
                "7C8183848180075693D9AE941877573E634B6E644F8E60AF17A0076B8B123D9201074D36152BD8B3"
                    + "A213F53820C42ADC79AB5D0AEEC3AEFB91394DA476BD97B9B14D0A65C1FC71A0E019CB08AF55E1F7"
                    + "29005FBA7E3FA5DC41899238A250767A6D46DB974064386CD456743585F8E5D90CC8B4004B1F6D86"
                    + "6C79CE0584E49687FF61BC29AEA19000"
            ),
            (
                "008600000C7C0A8508B46DD9BD4D98381F00",
                "7C0A8608917F37B5C0E6D8D19000"
            ),
        ],
        ksEnc: hex("2F7F46ADCC9E7E521B45D192FAFA9126"), ksMac: hex("805A1D27D45A5116F73C54469462B7D8"))

    /// App. H.1: Integrated Mapping, ECDH on brainpoolP256r1, AES-128, password "123456" (sent here as a CAN).
    static let integratedMappingECDH = WorkedExample(
        protocolIdentifier: "0.4.0.127.0.7.2.2.4.4.2", parameterId: 13,
        accessKey: try! .can(value: "123456"),
        random: hex("5DD4CBFC96F5453B130D890A1CDBAE32")
            + hex("A73FB703AC1436A18E0CFA5ABB3F7BEC7A070E7A6788486BEE230C4A22762595"),
        setAuthenticationTemplate: "0022C1A412800A04007F0007020204040283010284010D",
        generalAuthenticate: [
            (
                "10860000027C0000",
                "7C128010143DC40C08C8E891FBED7DEDB92B64AD9000"
            ),
            (
                "10860000147C1281105DD4CBFC96F5453B130D890A1CDBAE3200",
                "9000"
            ),
            (
                "10860000457C4383410489CBA23FFE96AA18D824627C3E934E54A9FD0B87A95D1471DC1C0ABFDCD6"
                    + "40D46755DE9B7B778280B6BEBD57439ADFEB0E21FD4ED6DF42578C13418A59B34C3700",
                "7C4384410467F78E5F7F7686082B293E8D087E056916D0F74BC01A5F8957D0DE45691E51E8932B69"
                    + "A962B52A0985AD2C0A271EE6A13A8ADDDCD1A3A994B9DED257F4D227539000"
            ),
            (
                "008600000C7C0A8508450F02B86F6A090900",
                "7C0A860875D4D96E8D5B03089000"
            ),
        ],
        ksEnc: hex("0D3FEB33251A6370893D62AE8DAAF51B"), ksMac: hex("B01E89E3D9E8719E586B50B4A7506E0B"))

    /// App. H.2: Integrated Mapping, DH on the 1024-bit MODP group, AES-128, password "123456" (as a CAN). The example's 1024-bit private exponent 4BD0E547… is drawn here reduced mod q (89CCD99B…): the mapped generator has order q, so the public key is the same.
    static let integratedMappingDH = WorkedExample(
        protocolIdentifier: "0.4.0.127.0.7.2.2.4.3.2", parameterId: 0,
        accessKey: try! .can(value: "123456"),
        random: hex("B3A6DB3C870C3E99245E0D1C06B747DE") + hex("89CCD99B0E8D3B1F11E1296DCA68EC53411CF2CA"),
        setAuthenticationTemplate: "0022C1A412800A04007F00070202040302830102840100",
        generalAuthenticate: [
            (
                "10860000027C0000",
                "7C1280109ABB8864CA0FF1551E620D1EF4E135109000"
            ),
            (
                "10860000147C128110B3A6DB3C870C3E99245E0D1C06B747DE00",
                "9000"
            ),
            (
                "10860000867C81838381800F0CC62945A8029251FB7EF3C094E12EC68E4EF07F27CB9D9CD04C5C42"
                    + "50FAE0E4F8A951557E929AEB48E5C6DD47F2F5CD7C351A9BD2CD722C07EDE166770F08FFCB370262"
                    + "CF308DD7B07F2E0DA9CAAA1492344C852906919538C98A4BA4187E76CE9D87832386D319CE2E043C"
                    + "3343AEAE6EDBA1A9894DC5094D22F7FE1351D500",
                "7C8183848180928D9A0F9DBA450F13FC859C6F290D1D36E42431138A4378500BEB4E0401854CFF11"
                    + "1F71CB6DC1D0335807A11388CC8EAA87B07907AAD9FBA6B169AF6D8C26AF8DDDC39ADC3AD2E3FF88"
                    + "2B84D23E9768E95A80E4746FB07A9767679FE92133B4D379935C771BD7FBED6C7BB4B1708B275EA7"
                    + "5679524CDC9C6A91370CC662A2F39000"
            ),
            (
                "008600000C7C0A850855D61977CBF5307E00",
                "7C0A8608C2F04230187E15259000"
            ),
        ],
        ksEnc: hex("01AFC10CF87BE36D8179E87370171F07"), ksMac: hex("23F0FBD05FD6C7B8B88F4C8309669061"))

    /// App. I.1: Chip Authentication Mapping, ECDH on brainpoolP256r1, AES-128, MRZ password of the German ID card specimen.
    static let chipAuthenticationMapping = WorkedExample(
        protocolIdentifier: "0.4.0.127.0.7.2.2.4.6.2", parameterId: 13,
        accessKey: try! .mrz(documentNumber: "C11T002JM", dateOfBirth: "960812", dateOfExpiry: "231031"),
        random: hex("5D8BB87BD74D985A4B7D4325B9F7B976FE835122773400798914AA22738135CC")
            + hex("76ECFDAA9841C323A3F5FC5E88B88DB3EFF7E35EBF57A7E6946CB630006C2120"),
        setAuthenticationTemplate: "0022C1A412800A04007F0007020204060283010184010D",
        generalAuthenticate: [
            (
                "10860000027C0000",
                "7C128010CB60E8E0D85B76A9BD304747C2AD42E29000"
            ),
            (
                "10860000457C438141047F1D410ADB7DDB3B84BF1030800981A9105D7457B4A3ADE002384F3086C6"
                    + "7EDE1AB889104A27DB6D842B019020FBF3CEACB0DC627F7BDCAC29969E19D0E553C100",
                "7C43824104A234236AA9B9621E8EFB73B5245C0E09D2576E5277183C1208BDD55280CAE8B304F365"
                    + "713A356E65A451E165ECC9AC0AC46E3771342C8FE5AEDD092685338E239000"
            ),
            (
                "10860000457C43834104446C934084D9DAB863944F219520076C29EE3F7AE6722B11FF319EC1C772"
                    + "8F955483400BFF60BF0C5929270009277DC2A515E12575010AD9BA916CF1BF86FEFC00",
                "7C4384410402AD566F3C6EC7F9324509AD50A51FA52030782A4968FCFEDF737DAEA993333111C3B9"
                    + "B4C2287789BD137E7F8AA882E2A3C633CCD6ECC2C63C57AD401A09C2E19000"
            ),
            (
                "008600000C7C0A8508E86BD06018A1CD3B00",
                "7C3C86088596CF055C67C1A38A301EEA964DAAE372AC990E3EFDE6333353BFC89A6704D93DA8798C"
                    + "F77F5B7A54BD10CBA372B42BE0B9B5F28AA8DE2F4F929000"
            ),
        ],
        ksEnc: hex("0A9DA4DB03BDDE39FC5202BC44B2E89E"), ksMac: hex("4B1C06491ED5140CA2B537D344C6C0B1"))
}
