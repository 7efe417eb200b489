import Foundation
import JSON
import Testing

@testable import LDS

/// The files in ../shared/data, parsed and checked against what SOURCES.md says they hold.
struct RealDataTests {
    /// Files that are not LDS files (certificates, keys, master lists, images, licences) or that
    /// another package models (EF.SOD, tag 77), or bare biometric records tested on their own.
    static func isLDSFile(_ path: String) -> Bool {
        let skipped = ["der", "cer", "ml", "pem", "md", "jp2", "jpg", "cvcert", "pkcs8", "dat"]
        let name = (path as NSString).lastPathComponent
        return !skipped.contains((path as NSString).pathExtension.lowercased())
            && !name.hasPrefix("LICENSE") && !name.hasPrefix("COPYING") && name != "npa_key"
            && !name.hasPrefix("src_certs") && !name.contains("SOD") && name != "ef011D.bin"
            && !name.hasPrefix("ISO19794") && !path.contains("iso39794/")
    }

    @Test func everyDataGroupComCardAccessAndCardSecurityParses() throws {
        let paths = SharedData.files(where: Self.isLDSFile)
        guard !paths.isEmpty else { return }
        #expect(paths.count >= 55)
        for path in paths {
            let bytes = try #require(SharedData.file(path))
            let kind = try #require(LDSFileKind.guess(from: bytes), "\(path): no kind for its first byte")
            let result = LDSFileParser.parseLeniently(bytes, as: kind)
            #expect(result.model != nil, "\(path) as \(kind.rawValue): \(result.warnings)")
            // The JSON text parses back to the same tree.
            let json = result.json
            #expect(try JSONValue.parse(json.serialized()) == json, "\(path): JSON does not round-trip")
            #expect(try JSONValue.parse(json.serialized(pretty: true)) == json)
        }
    }

    @Test func commonFiles() throws {
        guard let bsi = SharedData.file("jmrtd/bsi2008/EF_COM.bin"),
            let loes = SharedData.file("jmrtd/loes2006/ef011E.bin"),
            let andyq = SharedData.file("andyq_nfcpassportreader/EF_COM_lds0107.bin")
        else { return }
        let first = try CommonFile(bsi)
        #expect(first.ldsVersion == "0107")
        #expect(first.dataGroups == [.dg1, .dg2, .dg3, .dg14])
        let second = try CommonFile(loes)
        #expect(second.unicodeVersion == "040000")
        #expect(second.dataGroups == [.dg1, .dg2, .dg15])
        #expect(try CommonFile(andyq).dataGroups == [.dg1, .dg2, .dg3, .dg7, .dg11, .dg12, .dg14, .dg15])
    }

    @Test func dataGroup1InEveryLayout() throws {
        let expected: [(String, String, String)] = [
            ("jmrtd/bsi2008/Datagroup1.bin", "td3", "P<D<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<<<<<<<<<"),
            ("jmrtd/loes2006/ef0101.bin", "td3", "P<NLDMEULENDIJK<<LOES<ALBERTINE<<<<<<<<<<<<<"),
            ("pymrtd/icao9303/DG1_TD1_9303-10_A.2.1.bin", "td1", "VAN<DER<STEEN<<MARIANNE<LOUISE"),
            ("gmrtd/dg/DG1_TD2_UTO_ERIKSSON.bin", "td2", "I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<"),
        ]
        for (path, layout, line) in expected {
            guard let bytes = SharedData.file(path) else { return }
            let group = try MRZDataGroup(bytes)
            #expect(group.machineReadableZone.travelDocumentType.rawValue == layout, "\(path)")
            #expect(group.machineReadableZone.lines.contains(line), "\(path)")
        }
        guard let bsi = SharedData.file("jmrtd/bsi2008/Datagroup1.bin") else { return }
        let zone = try MRZDataGroup(bsi).machineReadableZone
        #expect(zone.td3?.documentNumber.value == "C11T002JM")
    }

    @Test func faceImages() throws {
        guard let bsi = SharedData.file("jmrtd/bsi2008/Datagroup2.bin"),
            let loes = SharedData.file("jmrtd/loes2006/ef0102.bin"),
            let silverFile = SharedData.file("jmrtd/dg2/dg2_silver_all_fields.bin"),
            let silverMandatory = SharedData.file("jmrtd/dg2/dg2_silver_mandatory_fields.bin"),
            let silver = SharedData.file("jmrtd/dg2/silver.jp2"),
            let synthetic = SharedData.file("gmrtd/dg/DG2_jpeg_synthetic_gMRTD.bin"),
            let syntheticJPEG = SharedData.file("gmrtd/ISO19794_Test1_Face.jpg")
        else { return }
        let first = try EncodedIdentificationFeaturesFace(bsi)
        #expect(first.records.count == 1)
        #expect(first.records[0].header.formatOwner == 0x0101 && first.records[0].header.formatType == 0x0008)
        #expect(first.records[0].dataBlock.standard == .iso19794Face)
        let face = try #require(first.records[0].dataBlock.images.first)
        #expect(face.image.format == .jpeg2000)
        // The 19794-5 header declares 337×449; the JPEG 2000 image itself is 413×531.
        #expect(face.face?.width == 337 && face.face?.height == 449)
        #expect(face.image.size == ImageSize(width: 413, height: 531))
        #expect(face.image.png != nil)

        let dutch = try #require(try EncodedIdentificationFeaturesFace(loes).images.first)
        #expect(dutch.format == .jpeg2000 && dutch.size == ImageSize(width: 449, height: 598))

        for file in [silverFile, silverMandatory] {
            let group = try EncodedIdentificationFeaturesFace(file)
            #expect(group.records[0].dataBlock.standard == .iso39794Face)
            #expect(group.records[0].dataBlock.version == "3/2019")
            #expect(group.images.map(\.bytes) == [Data(silver)])
        }

        let jpeg = try EncodedIdentificationFeaturesFace(synthetic)
        #expect(jpeg.images.map(\.bytes) == [Data(syntheticJPEG)])
        #expect(jpeg.images.first?.format == .jpeg)
        #expect(jpeg.images.first?.png == nil)
        #expect(jpeg.warnings.isEmpty)
    }

    @Test func bareBiometricRecords() throws {
        guard let record19794 = SharedData.file("gmrtd/ISO19794_Test1_Data.bin"),
            let jpeg = SharedData.file("gmrtd/ISO19794_Test1_Face.jpg"),
            let face39794 = SharedData.file("gmrtd/ICAO_39794_5_AP_AllFields.dat"),
            let silver = SharedData.file("jmrtd/dg2/silver.jp2"),
            let finger39794 = SharedData.file("jmrtd/iso39794/sample-39794-4-ed-1-v1.der"),
            let iris39794 = SharedData.file("jmrtd/iso39794/sample-39794-6-ed-1-v1.der"),
            let largeFace = SharedData.file("jmrtd/iso39794/sample-39794-5-ed-1-v1.der")
        else { return }
        let face = BiometricDataBlock(record19794)
        #expect(face.standard == .iso19794Face && face.images.map(\.image.bytes) == [Data(jpeg)])
        let profile = BiometricDataBlock(face39794)
        #expect(profile.standard == .iso39794Face && profile.images.map(\.image.bytes) == [Data(silver)])
        let finger = BiometricDataBlock(finger39794)
        #expect(finger.standard == .iso39794Finger)
        let iris = BiometricDataBlock(iris39794)
        #expect(iris.standard == .iso39794Iris && iris.images.count == 1)
        let large = BiometricDataBlock(largeFace)
        #expect(large.standard == .iso39794Face && large.images.first?.image.format == .jpeg)
        #expect(large.images.first?.image.bytes.count == 893_557)
    }

    @Test func fingerprintsIrisesPortraitAndSignature() throws {
        guard let dg3 = SharedData.file("jmrtd/bsi2008/Datagroup3.bin"),
            let dg4 = SharedData.file("jmrtd/bsi2008/Datagroup4.bin"),
            let dg5 = SharedData.file("tsemrtd/EF_DG5.bin"),
            let dg7 = SharedData.file("tsemrtd/EF_DG7.bin")
        else { return }
        let fingers = try EncodedIdentificationFeatures(dg3, kind: .dg3)
        #expect(fingers.records.map(\.dataBlock.standard) == [.iso19794Finger, .iso19794Finger])
        #expect(fingers.records.flatMap(\.dataBlock.images).map(\.position) == [2, 7])
        #expect(fingers.images.allSatisfy { $0.format == .wsq && $0.size == ImageSize(width: 620, height: 620) })
        let irises = try EncodedIdentificationFeatures(dg4, kind: .dg4)
        #expect(irises.records.map(\.header.biometricType) == [16, 16])
        #expect(irises.images.map(\.format) == [.jpeg2000, .jpeg2000])
        #expect(irises.images.map(\.size.width) == [163, 160])
        #expect(irises.images.allSatisfy { $0.png != nil })
        let portrait = try DisplayedPortrait(dg5)
        #expect(portrait.images.count == 1 && portrait.images[0].format == .jpeg2000)
        let signature = try DisplayedSignatureOrUsualMark(dg7)
        #expect(signature.images.first?.size == ImageSize(width: 550, height: 142))
    }

    @Test func additionalPersonalDetails() throws {
        guard let tsemrtd = SharedData.file("tsemrtd/EF_DG11.bin"),
            let icao = SharedData.file("gmrtd/dg/DG11_icao_example.bin"),
            let andyq = SharedData.file("andyq_nfcpassportreader/DG11_synthetic.bin")
        else { return }
        let first = try AdditionalPersonalDetails(tsemrtd)
        #expect(first.fullNameText == "Doe John")
        #expect(first.otherNames == ["William"])
        #expect(first.fullDateOfBirthRecord == LDSDate(value: "19700101", encoding: .bcd))
        #expect(first.placeOfBirthText == "TEST<TEST")
        #expect(first.otherValidTravelDocumentNumbersText == "123<123")
        #expect(first.tagList.count == 12)
        let second = try AdditionalPersonalDetails(icao)
        #expect(second.fullNameText == "SMITH<<JOHN<J")
        #expect(second.addressText == "123 MAPLE RD<ANYTOWN<MN")
        #expect(second.address == ["123 MAPLE RD", "ANYTOWN", "MN"])
        #expect(second.telephone == "16125551212")
        #expect(second.professionText == "TRAVEL<AGENT" && second.profession == "TRAVEL AGENT")
        #expect(second.fullDateOfBirth == nil)
        let third = try AdditionalPersonalDetails(andyq)
        #expect(third.fullDateOfBirthRecord == LDSDate(value: "19701201", encoding: .text))
        #expect(third.placeOfBirthText == "Northampton")
    }

    @Test func additionalDocumentDetails() throws {
        guard let tsemrtd = SharedData.file("tsemrtd/EF_DG12.bin"),
            let example = SharedData.file("gmrtd/dg/DG12_example1.bin"),
            let france = SharedData.file("gmrtd/sod_samples/FR_DG12.bin"),
            let andyq = SharedData.file("andyq_nfcpassportreader/DG12_synthetic.bin")
        else { return }
        let bcd = try AdditionalDocumentDetails(tsemrtd)
        #expect(bcd.tagList.isEmpty)
        #expect(bcd.dateOfIssueRecord == LDSDate(value: "20240101", encoding: .bcd))
        #expect(bcd.dateAndTimeOfPersonalization == LDSDate(value: "20240101123059", encoding: .bcd))
        #expect(bcd.otherPersonDetailsText == ["William"])
        #expect(bcd.personalizationDeviceSerialNumber == "123")
        let text = try AdditionalDocumentDetails(example)
        #expect(text.dateAndTimeOfPersonalization == LDSDate(value: "20161115013612", encoding: .text))
        #expect(text.personalizationDeviceSerialNumber == "N-4962")
        let french = try AdditionalDocumentDetails(france)
        #expect(french.issuingAuthority == "JAKARTA - AMBASSADE DE FRANCE EN INDONESIE")
        #expect(french.dateOfIssue == "20170905")
        #expect(try AdditionalDocumentDetails(andyq).issuingAuthority == "TESTER")
    }

    @Test func personsToNotify() throws {
        guard let bytes = SharedData.file("gmrtd/dg/DG16_icao_example.bin") else { return }
        let group = try PersonsToNotify(bytes)
        #expect(group.persons.map(\.nameText) == ["SMITH<<CHARLES<R", "BROWN<<MARY<J"])
        #expect(group.persons.map(\.name) == ["SMITH CHARLES R", "BROWN MARY J"])
        #expect(group.persons.map(\.dateDataRecorded?.value) == ["20020101", "20020315"])
        #expect(group.persons[1].addressText == "49 REDWOOD LN<OCEAN BREEZE<CA<94000")
        #expect(group.persons[1].address == "49 REDWOOD LN OCEAN BREEZE CA 94000")
    }

    @Test func chipAuthenticationKeysInDataGroup14() throws {
        let ecdh: [(String, String, Int, String)] = [
            ("jmrtd/bsi2008/Datagroup14.bin", "brainpoolP224r1", 224, "id-CA-ECDH-3DES-CBC-CBC"),
            ("gmrtd/sod_samples/AT_DG14.bin", "brainpoolP256r1", 256, "id-CA-ECDH-AES-CBC-CMAC-128"),
            ("gmrtd/sod_samples/DE_DG14.bin", "brainpoolP256r1", 256, "id-CA-ECDH-AES-CBC-CMAC-128"),
            ("gmrtd/sod_samples/FI_DG14.bin", "brainpoolP384r1", 384, "id-CA-ECDH-AES-CBC-CMAC-256"),
            ("gmrtd/sod_samples/MY_DG14.bin", "brainpoolP256r1", 256, "id-CA-ECDH-3DES-CBC-CBC"),
        ]
        for (path, curve, bits, protocolName) in ecdh {
            guard let bytes = SharedData.file(path) else { return }
            let infos = try SecurityOptions(bytes, kind: .dg14)
            let key = try #require(infos.chipAuthenticationPublicKeyInfos.first, "\(path)")
            #expect(key.publicKey.keyAlgorithm == .ec)
            #expect(key.publicKey.parameterEncoding == .explicit)
            #expect(key.publicKey.curve == curve, "\(path)")
            #expect(key.publicKey.keySize == UInt32(bits))
            #expect(key.publicKey.publicKey.count == 1 + 2 * (bits / 8))
            #expect(infos.chipAuthenticationInfos.first?.protocolIdentifier.name == protocolName, "\(path)")
            #expect(infos.warnings.isEmpty)
        }
        guard let france = SharedData.file("gmrtd/sod_samples/FR_DG14.bin"),
            let dh = SharedData.file("jmrtd/doc9303/spec_sample_encoded_dg14.bin"),
            let singapore = SharedData.file("gmrtd/sod_samples/SG_DG14.bin"),
            let germany = SharedData.file("gmrtd/sod_samples/DE_DG14.bin"),
            let version16 = SharedData.file("pymrtd/etsi_tr103200_epassport_prototype/EAC_LDS_F06_EF_DG14.bin")
        else { return }
        let french = try SecurityOptions(france, kind: .dg14)
        #expect(french.chipAuthenticationPublicKeyInfos.first?.publicKey.curve == "secp256r1")
        #expect(french.chipAuthenticationInfos.isEmpty)
        #expect(french.paceInfos.first?.protocolIdentifier.name == "id-PACE-ECDH-GM-AES-CBC-CMAC-256")
        let diffieHellman = try SecurityOptions(dh, kind: .dg14)
        let dhKey = try #require(diffieHellman.chipAuthenticationPublicKeyInfos.first)
        #expect(dhKey.keyAgreement == .dh && dhKey.publicKey.keyAlgorithm == .dh)
        #expect(dhKey.publicKey.dhParameters != nil && dhKey.publicKey.keySize == 1024)
        #expect(diffieHellman.chipAuthenticationInfos.first?.protocolIdentifier.name == "id-CA-DH-3DES-CBC-CBC")
        #expect(diffieHellman.terminalAuthenticationInfos.first?.version == 1)
        let pace = try SecurityOptions(singapore, kind: .dg14)
        #expect(pace.securityInfos.count == 1 && pace.paceInfos.first?.parameterId == 13)
        #expect(pace.paceInfos.first?.mapping == .genericMapping && pace.paceInfos.first?.cipher == .aes256)
        let german = try SecurityOptions(germany, kind: .dg14)
        #expect(german.chipAuthenticationPublicKeyInfos.first?.keyId == 195)
        #expect(german.paceInfos.map(\.mapping) == [.genericMapping, .chipAuthenticationMapping])
        #expect(try SecurityOptions(version16, kind: .dg14).chipAuthenticationInfos.first?.version == 16)
    }

    @Test func activeAuthenticationKeysInDataGroup15() throws {
        let rsa: [(String, Int)] = [
            // The BSI 2008 modulus is written without its 00 sign byte: 1024 bits, not negative.
            ("jmrtd/bsi2008/Datagroup15.bin", 1024), ("jmrtd/loes2006/ef010F.bin", 1024),
            ("gmrtd/sod_samples/NZ_DG15.bin", 1792), ("pymrtd/bsi_tr03105-5_refdata/Datagroup15.bin", 1024),
            ("pymrtd/etsi_tr103200_epassport_prototype/DFLT_EACAA_EF_DG15.bin", 1024),
        ]
        for (path, bits) in rsa {
            guard let bytes = SharedData.file(path) else { return }
            let key = try ActiveAuthenticationPublicKey(bytes).publicKey
            #expect(key.keyAlgorithm == .rsa && key.keySize == UInt32(bits), "\(path)")
            #expect(key.rsaPublicExponent == [0x01, 0x00, 0x01])
            // The modulus as read has no leading zero: its bits are its bytes' less the first's zeros.
            #expect(key.rsaModulus.map { $0.count * 8 - ($0.first?.leadingZeroBitCount ?? 0) } == bits)
        }
        guard let ec = SharedData.file("andyq_nfcpassportreader/DG15_ec_brainpoolP256r1_explicit.bin"),
            let mistagged = SharedData.file("pymrtd/etsi_tr103200_epassport_prototype/EAC_LDS_I01_EF_DG15.bin")
        else { return }
        let key = try ActiveAuthenticationPublicKey(ec).publicKey
        #expect(key.keyAlgorithm == .ec && key.curve == "brainpoolP256r1" && key.keySize == 256)
        #expect(key.parameterEncoding == .explicit && key.ecParameters?.cofactor == [1])
        // ETSI's negative case: a DG15 under tag 70.
        #expect(throws: LDSError.self) { try ActiveAuthenticationPublicKey(mistagged) }
    }

    @Test func cardAccess() throws {
        guard let bsiECDH = SharedData.file("vsmartcard_npa-example-data/ecdh/ef_cardaccess"),
            let bsiDH = SharedData.file("vsmartcard_npa-example-data/dh/ef_cardaccess"),
            let slovenia = SharedData.file("openpace/ef_cardaccess_slowenia.bin"),
            let trailing = SharedData.file("openpace/ef_cardaccess_new_testcard.bin"),
            let old = SharedData.file("openpace/ef_cardaccess_old_testcard.bin"),
            let ca3 = SharedData.file("openpace/ef_cardaccess_ca3.bin")
        else { return }
        let ecdh = try SecurityOptions(bsiECDH, kind: .cardAccess)
        let pace = try #require(ecdh.paceInfos.first)
        #expect(pace.protocolIdentifier.name == "id-PACE-ECDH-GM-AES-CBC-CMAC-128")
        #expect(pace.version == 2 && pace.parameterId == 13 && pace.keyAgreement == .ecdh)
        #expect(ecdh.chipAuthenticationDomainParameterInfos.first?.standardizedDomainParameterId == 13)
        #expect(ecdh.securityInfos.contains { $0.protocolIdentifier?.name == "id-CI" })
        let dh = try SecurityOptions(bsiDH, kind: .cardAccess)
        #expect(dh.paceInfos.first?.protocolIdentifier.name == "id-PACE-DH-GM-AES-CBC-CMAC-128")
        #expect(dh.paceInfos.first?.parameterId == 0 && dh.paceInfos.first?.keyAgreement == .dh)
        let slovenian = try SecurityOptions(slovenia, kind: .cardAccess)
        #expect(slovenian.paceInfos.isEmpty)
        #expect(slovenian.securityInfos.contains { $0.protocolIdentifier?.dotted == "1.0.24727.3.0.9" })
        #expect(slovenian.warnings == ["2 bytes after the cardAccess TLV ignored"])
        #expect(
            try SecurityOptions(trailing, kind: .cardAccess).warnings == ["38 bytes after the cardAccess TLV ignored"])
        let explicit = try SecurityOptions(old, kind: .cardAccess)
        // Explicit parameters with a = p − 3: the twisted brainpoolP256t1, not in the table.
        let domain = try #require(explicit.paceDomainParameterInfos.first)
        #expect(domain.protocolIdentifier.name == "id-PACE-ECDH-GM" && domain.curveName == "explicit")
        let versions = try SecurityOptions(ca3, kind: .cardAccess).chipAuthenticationInfos.map(\.version)
        #expect(versions == [2, 3])
    }

    @Test func cardSecurity() throws {
        guard let germany = SharedData.file("gmrtd/cardsecurity/DE_EF_CardSecurity.bin"),
            let finland = SharedData.file("gmrtd/cardsecurity/FI_EF_CardSecurity.bin"),
            let jmrtd = SharedData.file("jmrtd/efcardsecurity/efcardsecurity.dump"),
            let bsiDH = SharedData.file("vsmartcard_npa-example-data/dh/ef_cardsecurity")
        else { return }
        let german = try CardSecurity(germany)
        #expect(german.eContentType.dotted == "0.4.0.127.0.7.3.2.1")
        let keys = german.securityInfos.chipAuthenticationPublicKeyInfos
        #expect(keys.map(\.keyId) == [13, 72])
        #expect(keys.allSatisfy { $0.publicKey.standardizedDomainParameterId == 13 })
        #expect(german.securityInfos.paceInfos.map(\.mapping) == [.genericMapping, .chipAuthenticationMapping])
        let finnish = try CardSecurity(finland)
        #expect(finnish.securityInfos.paceInfos.first?.parameterId == 16)
        #expect(finnish.securityInfos.chipAuthenticationPublicKeyInfos.first?.publicKey.curve == "brainpoolP384r1")
        let inline = try CardSecurity(jmrtd)
        let inlineKey = try #require(inline.securityInfos.chipAuthenticationPublicKeyInfos.first)
        #expect(inlineKey.isInline && inlineKey.publicKey.curve == "brainpoolP256r1")
        #expect(inline.warnings.isEmpty)
        let dh = try CardSecurity(bsiDH)
        #expect(dh.securityInfos.chipAuthenticationPublicKeyInfos.first?.publicKey.keyAlgorithm == .dh)
    }
}
