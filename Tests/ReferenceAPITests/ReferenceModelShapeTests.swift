// The reference model's Swift column, type for type: every record's properties as key paths of
// the exact type the reference names, its enums' cases and its functions' signatures. A property
// renamed or retyped here stops this file from compiling; the tests check the values behind
// the shapes on a document read from the simulator.
import Emrtd
import Foundation
import Testing

/// The reference's properties, record by record, as key paths of their exact types.
enum ReferenceShape {
    static var travelDocument: [PartialKeyPath<TravelDocument>] {
        [
            \TravelDocument.ldsMasterFile as KeyPath<TravelDocument, LdsMasterFile>,
            \TravelDocument.ldsVersion as KeyPath<TravelDocument, String>,
            \TravelDocument.unicodeVersion as KeyPath<TravelDocument, String?>,
            \TravelDocument.accessControlProtocolUsed as KeyPath<TravelDocument, AccessControlProtocol>,
            \TravelDocument.paceMapping as KeyPath<TravelDocument, PaceMapping?>,
            \TravelDocument.authenticationStatus as KeyPath<TravelDocument, AuthenticationStatus>,
            \TravelDocument.machineReadableZoneInformation
                as KeyPath<TravelDocument, MachineReadableZoneInformation>,
            \TravelDocument.encodedIdentificationFeaturesFace
                as KeyPath<TravelDocument, EncodedIdentificationFeaturesFace>,
            \TravelDocument.encodedIdentificationFeaturesFinger
                as KeyPath<TravelDocument, EncodedIdentificationFeatures?>,
            \TravelDocument.encodedIdentificationFeaturesIris
                as KeyPath<TravelDocument, EncodedIdentificationFeatures?>,
            \TravelDocument.displayedPortrait as KeyPath<TravelDocument, DisplayedPortrait?>,
            \TravelDocument.displayedSignatureOrUsualMark
                as KeyPath<TravelDocument, DisplayedSignatureOrUsualMark?>,
            \TravelDocument.additionalPersonalDetails as KeyPath<TravelDocument, AdditionalPersonalDetails?>,
            \TravelDocument.additionalDocumentDetails as KeyPath<TravelDocument, AdditionalDocumentDetails?>,
            \TravelDocument.optionalDetails as KeyPath<TravelDocument, OptionalDetails?>,
            \TravelDocument.securityOptions as KeyPath<TravelDocument, SecurityOptions?>,
            \TravelDocument.activeAuthenticationPublicKeyInfo as KeyPath<TravelDocument, PublicKeyInfo?>,
            \TravelDocument.personsToNotify as KeyPath<TravelDocument, PersonsToNotify?>,
            \TravelDocument.warnings as KeyPath<TravelDocument, [String]>,
            \TravelDocument.debugInfo as KeyPath<TravelDocument, DebugInfo>,
        ]
    }

    static var files: [AnyKeyPath] {
        [
            \LdsMasterFile.lds1EmrtdApplication as KeyPath<LdsMasterFile, Lds1EmrtdApplication>,
            \LdsMasterFile.cardAccess as KeyPath<LdsMasterFile, Data?>,
            \LdsMasterFile.cardSecurity as KeyPath<LdsMasterFile, Data?>,
            \Lds1EmrtdApplication.com as KeyPath<Lds1EmrtdApplication, ElementaryFile>,
            \Lds1EmrtdApplication.sod as KeyPath<Lds1EmrtdApplication, ElementaryFile>,
            \Lds1EmrtdApplication.dg1 as KeyPath<Lds1EmrtdApplication, ElementaryFile>,
            \Lds1EmrtdApplication.dg2 as KeyPath<Lds1EmrtdApplication, ElementaryFile>,
            \Lds1EmrtdApplication.dg3 as KeyPath<Lds1EmrtdApplication, ElementaryFile?>,
            \Lds1EmrtdApplication.dg4 as KeyPath<Lds1EmrtdApplication, ElementaryFile?>,
            \Lds1EmrtdApplication.dg5 as KeyPath<Lds1EmrtdApplication, ElementaryFile?>,
            \Lds1EmrtdApplication.dg7 as KeyPath<Lds1EmrtdApplication, ElementaryFile?>,
            \Lds1EmrtdApplication.dg8 as KeyPath<Lds1EmrtdApplication, ElementaryFile?>,
            \Lds1EmrtdApplication.dg9 as KeyPath<Lds1EmrtdApplication, ElementaryFile?>,
            \Lds1EmrtdApplication.dg10 as KeyPath<Lds1EmrtdApplication, ElementaryFile?>,
            \Lds1EmrtdApplication.dg11 as KeyPath<Lds1EmrtdApplication, ElementaryFile?>,
            \Lds1EmrtdApplication.dg12 as KeyPath<Lds1EmrtdApplication, ElementaryFile?>,
            \Lds1EmrtdApplication.dg13 as KeyPath<Lds1EmrtdApplication, ElementaryFile?>,
            \Lds1EmrtdApplication.dg14 as KeyPath<Lds1EmrtdApplication, ElementaryFile?>,
            \Lds1EmrtdApplication.dg15 as KeyPath<Lds1EmrtdApplication, ElementaryFile?>,
            \Lds1EmrtdApplication.dg16 as KeyPath<Lds1EmrtdApplication, ElementaryFile?>,
            \ElementaryFile.id as KeyPath<ElementaryFile, ElementaryFileId>,
            \ElementaryFile.bytes as KeyPath<ElementaryFile, Data?>,
        ]
    }

    static var verdicts: [AnyKeyPath] {
        [
            \AuthenticationStatus.data as KeyPath<AuthenticationStatus, DataAuthenticationStatus>,
            \AuthenticationStatus.chip as KeyPath<AuthenticationStatus, ChipAuthenticationStatus>,
            \DataAuthenticationStatus.status as KeyPath<DataAuthenticationStatus, DataStatus>,
            \DataAuthenticationStatus.protocol as KeyPath<DataAuthenticationStatus, Emrtd.DataProtocol>,
            \DataAuthenticationStatus.sodSignatureValid as KeyPath<DataAuthenticationStatus, Bool>,
            \DataAuthenticationStatus.certificateChainValid as KeyPath<DataAuthenticationStatus, Bool>,
            \DataAuthenticationStatus.dataGroupHashesValid as KeyPath<DataAuthenticationStatus, Bool>,
            \DataAuthenticationStatus.dataGroupHashes as KeyPath<DataAuthenticationStatus, [DataGroupHash]>,
            \DataGroupHash.dataGroupNumber as KeyPath<DataGroupHash, UInt8>,
            \DataGroupHash.status as KeyPath<DataGroupHash, HashStatus>,
            \DataAuthenticationStatus.hashAlgorithm as KeyPath<DataAuthenticationStatus, String?>,
            \DataAuthenticationStatus.signatureAlgorithm as KeyPath<DataAuthenticationStatus, String?>,
            \DataAuthenticationStatus.documentSignerCertificate
                as KeyPath<DataAuthenticationStatus, CertificateInfo?>,
            \DataAuthenticationStatus.countrySigningCertificate
                as KeyPath<DataAuthenticationStatus, CertificateInfo?>,
            \DataAuthenticationStatus.issuingCountry as KeyPath<DataAuthenticationStatus, String?>,
            \DataAuthenticationStatus.errors as KeyPath<DataAuthenticationStatus, [String]>,
            \ChipAuthenticationStatus.status as KeyPath<ChipAuthenticationStatus, ChipStatus>,
            \ChipAuthenticationStatus.protocol as KeyPath<ChipAuthenticationStatus, ChipProtocol?>,
            \ChipAuthenticationStatus.activeAuthentication as KeyPath<ChipAuthenticationStatus, ChipStatus?>,
            \ChipAuthenticationStatus.activeAuthenticationResponse as KeyPath<ChipAuthenticationStatus, Data?>,
            \CertificateInfo.subject as KeyPath<CertificateInfo, String>,
            \CertificateInfo.issuer as KeyPath<CertificateInfo, String>,
            \CertificateInfo.country as KeyPath<CertificateInfo, String?>,
            \CertificateInfo.organization as KeyPath<CertificateInfo, String?>,
            \CertificateInfo.commonName as KeyPath<CertificateInfo, String?>,
            \CertificateInfo.serialNumber as KeyPath<CertificateInfo, String>,
            \CertificateInfo.notBefore as KeyPath<CertificateInfo, String>,
            \CertificateInfo.notAfter as KeyPath<CertificateInfo, String>,
            \CertificateInfo.signatureAlgorithm as KeyPath<CertificateInfo, String>,
            \CertificateInfo.publicKeyAlgorithm as KeyPath<CertificateInfo, String>,
            \CertificateInfo.publicKeySize as KeyPath<CertificateInfo, UInt32>,
            \CertificateInfo.subjectKeyIdentifier as KeyPath<CertificateInfo, String?>,
            \CertificateInfo.authorityKeyIdentifier as KeyPath<CertificateInfo, String?>,
            \CertificateInfo.sha256Fingerprint as KeyPath<CertificateInfo, String>,
            \CertificateInfo.der as KeyPath<CertificateInfo, Data>,
        ]
    }

    static var hostFacing: [AnyKeyPath] {
        [
            \DebugInfo.events as KeyPath<DebugInfo, [DebugEvent]>,
            \DebugEvent.timestampMillis as KeyPath<DebugEvent, UInt64>,
            \DebugEvent.message as KeyPath<DebugEvent, String>,
            \ReaderConfig.useBuiltInAuthorityCertificates as KeyPath<ReaderConfig, Bool>,
            \ReaderConfig.authorityCertificates as KeyPath<ReaderConfig, [Data]>,
            \ReaderConfig.timeoutMs as KeyPath<ReaderConfig, UInt32>,
            \ReaderConfig.debug as KeyPath<ReaderConfig, Bool>,
            \ReadOutcome.resultStatus as KeyPath<ReadOutcome, String>,
            \ReadOutcome.resultError as KeyPath<ReadOutcome, String?>,
            \ReadOutcome.accessControlProtocol as KeyPath<ReadOutcome, AccessControlProtocol?>,
            \ReadOutcome.paceMapping as KeyPath<ReadOutcome, PaceMapping?>,
            \ReadOutcome.chipAuthenticationStatus as KeyPath<ReadOutcome, ChipStatus?>,
            \ReadOutcome.chipAuthenticationProtocol as KeyPath<ReadOutcome, ChipProtocol?>,
            \ReadOutcome.dataAuthenticationStatus as KeyPath<ReadOutcome, DataStatus?>,
            \ReadOutcome.mrzIssuingState as KeyPath<ReadOutcome, String?>,
            \ReadOutcome.mrzDocumentCode as KeyPath<ReadOutcome, String?>,
            \ReadOutcome.dataGroups as KeyPath<ReadOutcome, [ElementaryFileId]>,
            \ReadOutcome.durationMs as KeyPath<ReadOutcome, UInt64>,
        ]
    }

    /// Every enum case the reference names, by the reference's case name.
    static var enumCases: [Any] {
        [
            AccessControlProtocol.bac, AccessControlProtocol.pace,
            PaceMapping.genericMapping, PaceMapping.integratedMapping, PaceMapping.chipAuthenticationMapping,
            DataStatus.authenticated, DataStatus.denied, DataStatus.authorityCertificatesNotProvided,
            Emrtd.DataProtocol.passiveAuthentication,
            HashStatus.valid, HashStatus.invalid, HashStatus.notRead,
            ChipStatus.authenticated, ChipStatus.denied, ChipStatus.notSupported,
            ChipProtocol.paceChipAuthenticationMapping, ChipProtocol.chipAuthentication,
            ChipProtocol.activeAuthentication,
            ImageFormat.jpeg, ImageFormat.jpeg2000, ImageFormat.png, ImageFormat.wsq, ImageFormat.unknown,
            TravelDocumentType.td1, TravelDocumentType.td2, TravelDocumentType.td3,
            ElementaryFileId.com, ElementaryFileId.sod, ElementaryFileId.dg1, ElementaryFileId.dg5,
            ElementaryFileId.dg7, ElementaryFileId.dg16,
            ReadErrorKind.readingDataGroups, ReadErrorKind.parseMasterFile, ReadErrorKind.unknown,
        ]
    }

    /// The reference's global functions, by their exact signatures.
    static var functions: [Any] {
        [
            parseMrz(lines:) as ([String]) throws -> MachineReadableZone,
            accessKeyFromMrz(mrz:) as (MachineReadableZone) -> AccessKey,
            { travelDocumentToJson(document: $0) } as (TravelDocument) -> String,
            { machineReadableZoneToJson(mrz: $0) } as (MachineReadableZone) -> String,
            certificateInfos(pemOrDer:) as (Data) -> [CertificateInfo],
            readErrorMessage(error:) as (ReadError) -> String,
            { readErrorToJson(error: $0) } as (ReadError) -> String,
            readOutcome(document:error:durationMs:) as (TravelDocument?, ReadError?, UInt64) -> ReadOutcome,
            { readOutcomeToJson(outcome: $0) } as (ReadOutcome) -> String,
        ]
    }
}

@Suite struct ReferenceModelShapeTests {
    @Test func everyRecordOfTheReferenceIsNamedAndTypedAsItsSwiftColumn() {
        #expect(ReferenceShape.travelDocument.count == 20)
        #expect(ReferenceShape.files.count == 22)
        #expect(ReferenceShape.verdicts.count == 35)
        #expect(ReferenceShape.hostFacing.count == 18)
        #expect(ReferenceShape.enumCases.count == 35)
        #expect(ReferenceShape.functions.count == 9)
    }

    /// The shapes carry the document: a read of the simulator's rich specimen through the
    /// reference's own properties gives the files, images and fields the chip holds.
    @Test func theReferenceShapesCarryARead() throws {
        let chip = try ReferenceSimulatedChip(rich: true)
        let reader = try EmrtdReader(
            config: ReaderConfig(useBuiltInAuthorityCertificates: false, authorityCertificates: [chip.csca]))
        let document = try reader.read(
            transport: MyTransport(link: MyLink(exchange: chip.exchange)),
            accessKey: .can(value: ReferenceSimulatedChip.can), activeAuthenticationChallenge: nil, listener: nil)
        let application = document.ldsMasterFile.lds1EmrtdApplication
        #expect(application.com.id == .com)
        #expect(application.dg1.bytes == chip.dataGroup(1))
        #expect(application.dg2.bytes == chip.dataGroup(2))
        #expect(application.dg15?.bytes == chip.dataGroup(15))
        #expect(application.dg3 != nil && application.dg3?.bytes == nil)  // refused: EAC
        #expect(application.dg9 == nil)
        #expect(document.ldsVersion == "1.8")

        let face = try #require(document.encodedIdentificationFeaturesFace.faceImage)
        #expect(face.size.width > 0 && face.size.height > 0 && face.format == .jpeg)
        let record = try #require(document.encodedIdentificationFeaturesFace.records.first)
        #expect(record.biometricType == 2)  // ISO 7816-11: facial features
        #expect(record.images.first == face && !record.data.isEmpty)
        #expect(document.encodedIdentificationFeaturesFinger == nil)  // DG3 refused
        #expect(document.displayedPortrait?.displayedPortraitImage?.format == .jpeg)
        #expect(document.displayedSignatureOrUsualMark?.displayedSignatureOrUsualMarkImage != nil)
        let key = try #require(document.activeAuthenticationPublicKeyInfo)
        #expect(key.keySize > 0 && !key.der.isEmpty)
        let infos = try #require(document.securityOptions?.securityInfos)
        #expect(infos.contains { $0.protocol.hasPrefix("0.4.0.127.0.7.2.2.3") })
        #expect(document.optionalDetails?.content.isEmpty == false)
        #expect(document.personsToNotify?.persons.first?.telephone == "+00 555 0101")
        #expect(document.debugInfo.events.isEmpty)
    }
}
