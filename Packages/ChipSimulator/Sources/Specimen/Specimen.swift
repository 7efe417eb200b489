import ASN1
import Foundation
import LDS

/// A document made at run time: its files with a valid EF.SOD, and the test PKI that signed it
/// (a fresh self-signed CSCA and a document signer under it, ECDSA P-256, SHA-256). The CSCA is
/// what a reader must be given to find the data `authenticated`; the chip's credentials (its
/// PACE offers and the private keys behind DG14, DG15 and EF.CardSecurity) are what a
/// `SimulatedChip` must be given to prove itself genuine:
/// `ChipConfiguration(files: specimen.files, credentials: specimen.credentials)`.
public struct Specimen: Sendable {
    public var files: ChipFiles
    /// The passwords, PACE offers and private keys the files were written for.
    public var credentials: Credentials
    /// DER of the specimen's CSCA certificate.
    public let countrySigningCertificate: [UInt8]
    /// DER of the document signer certificate (also inside EF.SOD).
    public let documentSignerCertificate: [UInt8]
    /// The CSCA's key, kept for `signedList` (never written anywhere).
    private let authorityKey: TestKeyPair

    /// The issuing state in the certificates' names (ISO 3166 alpha-2 is required there; the MRZ
    /// of the ICAO specimens uses the fictional "UTO").
    static let countryCode = "UT"

    /// Signs the data groups in `files` with a fresh test PKI and sets EF.SOD over all of them.
    /// With `credentials` that hold keys, DG14 (Chip Authentication keys, an ECDSA Active
    /// Authentication key's ActiveAuthenticationInfo) and DG15 (the Active Authentication key)
    /// are written for them first, as `layout` says, and hashed with the others; with a PACE-CAM
    /// offer EF.CardSecurity is written (the offers' PACEInfos and the CAM key's public key info;
    /// a CAM offer without a key on its curve gets a fresh one, in the specimen's credentials) and
    /// signed by the same document signer. EF.COM and EF.CardAccess are kept as given (the chip
    /// makes its EF.CardAccess from the offers).
    public static func signing(
        _ files: ChipFiles, at time: Date = Date(), credentials: Credentials = Credentials(),
        layout: SecurityInfoLayout = SecurityInfoLayout()
    ) throws(ChipSimulatorError) -> Specimen {
        var credentials = credentials
        try credentials.offerPACE(credentials.paceOffers)
        return try sign(
            try withKeyFiles(files, credentials: credentials, layout: layout), at: time, credentials: credentials,
            layout: layout)
    }

    /// `files` with DG14 and DG15 written for the keys of `credentials` (when it has such keys).
    private static func withKeyFiles(
        _ files: ChipFiles, credentials: Credentials, layout: SecurityInfoLayout
    ) throws(ChipSimulatorError) -> ChipFiles {
        var files = files
        if let dataGroup14 = try SecurityInfosWriter.dataGroup14(credentials, layout: layout) {
            files[dataGroup: 14] = dataGroup14
        }
        if let key = credentials.activeAuthenticationKey {
            files[dataGroup: 15] = try SecurityInfosWriter.dataGroup15(key, layout: layout)
        }
        return files
    }

    /// EF.SOD over the data groups of `files` and, for PACE-CAM, EF.CardSecurity, under a fresh
    /// test PKI.
    private static func sign(
        _ files: ChipFiles, at time: Date, credentials: Credentials, layout: SecurityInfoLayout
    ) throws(ChipSimulatorError) -> Specimen {
        let (authority, signer, signerKey, authorityKey) = try TestCertificate.authorityAndSigner(
            authorityName: authorityName,
            signerName: TestCertificate.name([
                ("C", countryCode), ("O", "emrtd simulator"), ("CN", "emrtd simulator document signer"),
            ]),
            signerSerial: 2, at: time)
        var dataGroups: [Int: [UInt8]] = [:]
        for number in 1...16 {
            if let contents = files[dataGroup: number] { dataGroups[number] = contents }
        }
        guard dataGroups.count >= 2 else {
            throw ChipSimulatorError("an EF.SOD hashes at least two data groups, got \(dataGroups.count)")
        }
        var signed = files
        signed.sod = try SecurityObjectWriter.securityObject(
            dataGroups: dataGroups, signer: signerKey, signerCertificate: signer, signingTime: time)
        if let securityInfos = try SecurityInfosWriter.cardSecurityContent(credentials, layout: layout) {
            signed.cardSecurity = try SecurityObjectWriter.cardSecurity(
                securityInfos: securityInfos, signer: signerKey, signerCertificate: signer, signingTime: time)
        }
        return Specimen(
            files: signed, credentials: credentials, countrySigningCertificate: authority,
            documentSignerCertificate: signer, authorityKey: authorityKey)
    }

    /// The specimen CSCA's name.
    private static let authorityName = TestCertificate.name([
        ("C", countryCode), ("O", "emrtd simulator"), ("CN", "emrtd simulator test CSCA"),
    ])

    /// A signed list of `contentType` over `content` (a deviation list, ICAO 9303-12 §10), signed
    /// on `time` by a fresh list signer that this specimen's CSCA issued (serial 3, valid from the
    /// day before for a year) and that the list carries: what a reader trusts once it trusts the
    /// CSCA.
    public func signedList(contentType: ASN1ObjectIdentifier, content: [UInt8], at time: Date = Date())
        throws(ChipSimulatorError) -> [UInt8]
    {
        let listSignerKey = try TestKeyPair.ellipticCurve("P-256")
        let day: TimeInterval = 86_400
        let listSigner = try TestCertificate.make(
            serial: 3, issuer: Self.authorityName,
            subject: TestCertificate.name([
                ("C", Self.countryCode), ("O", "emrtd simulator"), ("CN", "emrtd simulator list signer"),
            ]), subjectKey: listSignerKey, issuerKey: authorityKey,
            authorityKeyIdentifier: try TestCertificate.keyIdentifier(
                ofSubjectPublicKeyInfo: authorityKey.subjectPublicKeyInfo()),
            isAuthority: false, notBefore: time.addingTimeInterval(-day), notAfter: time.addingTimeInterval(365 * day))
        return try SecurityObjectWriter.contentInfo(
            contentType: contentType, content: content, signer: listSignerKey, signerCertificate: listSigner,
            signingTime: time)
    }

    /// The machine readable zone of the specimen: ICAO 9303-11 Appendix D's Anna Maria Eriksson
    /// (BAC key: document number L898902C<, born 690806, expiring 940623).
    public static let machineReadableZoneLines = [
        "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C<3UTO6908061F9406236ZE184226B<<<<<14",
    ]

    /// The specimen's card access number.
    public static let cardAccessNumber = "123456"

    /// What a specimen chip proves itself with unless told otherwise: PACE-CAM
    /// (ECDH-CAM-AES-128 on brainpoolP256r1) with the CAN 123456 beside the MRZ, one Chip
    /// Authentication key (ECDH brainpoolP256r1, AES-128: CAM's static key too, as in
    /// EF.CardSecurity), and an RSA-2048 Active Authentication key with the explicit SHA-256
    /// trailer 34CC, the form of today's RSA documents (the real RSA-1792 answer in
    /// `../shared/vectors` has it), where BC would exercise only SHA-1. The RSA key is made once
    /// per process (its generation is what costs), the ECDH key per call.
    public static func standardCredentials() throws(ChipSimulatorError) -> Credentials {
        let offer = try PACEOffer(named: "ECDH-CAM-AES-128:13")
        return Credentials(
            can: CardAccessNumber(cardAccessNumber), paceOffers: [offer],
            activeAuthenticationKey: try standardActiveAuthenticationKey(),
            chipAuthenticationKeys: [
                ChipAuthenticationKey(try KeyAgreementKeyPair.generate(on: .brainpoolP256r1), cipher: .aes128)
            ])
    }

    /// The specimen's Active Authentication key: RSA-2048, the explicit SHA-256 trailer.
    public static func standardActiveAuthenticationKey() throws(ChipSimulatorError) -> ActiveAuthenticationKey {
        try .rsa(try sharedRSAKey.get(), trailer: .explicit(.sha256))
    }

    /// The RSA-2048 key of every specimen in a process.
    private static let sharedRSAKey = Result { () throws(ChipSimulatorError) -> RSAKeyPair in
        try RSAKeyPair.generate(bits: 2048)
    }

    /// A fresh specimen: EF.COM, DG1 (the MRZ above), DG2 (the synthetic face in an ISO/IEC
    /// 19794-5 record), DG11 and DG12, DG14 and DG15 for the chip's keys, EF.CardSecurity for
    /// PACE-CAM, signed by a fresh test PKI. `credentials` are the chip's (nil: the
    /// `standardCredentials()`; `Credentials()` makes a chip without PACE, Chip Authentication or
    /// Active Authentication, and without DG14 and DG15). `rich` adds DG3 (fingerprints, which the
    /// chip refuses without Extended Access Control), DG5 (displayed portrait), DG7 (displayed
    /// signature), DG13 and DG16, to exercise every model of the reader. `faceSize` pads DG2's
    /// image to about that many bytes (issued documents hold 15–100 KB there; without it the face
    /// is a few hundred bytes).
    public static func generate(
        rich: Bool = false, faceSize: Int = 0, at time: Date = Date(), credentials: Credentials? = nil,
        layout: SecurityInfoLayout = SecurityInfoLayout()
    ) throws(ChipSimulatorError) -> Specimen {
        guard faceSize <= maximumFaceSize else {
            throw ChipSimulatorError("a face of \(faceSize) bytes is above the \(maximumFaceSize) the specimen makes")
        }
        var chosen: Credentials
        if let credentials { chosen = credentials } else { chosen = try standardCredentials() }
        try chosen.offerPACE(chosen.paceOffers)
        let face = SyntheticFace.jpeg()
        var files = ChipFiles()
        files[dataGroup: 1] = MRZDataGroup.encoded(mrzLines: machineReadableZoneLines)
        files[dataGroup: 2] = EncodedIdentificationFeaturesFace.encodedFace(
            image: SyntheticFace.jpeg(paddedTo: faceSize), width: SyntheticFace.width, height: SyntheticFace.height)
        files[dataGroup: 11] =
            AdditionalPersonalDetails(
                fullNameText: "ERIKSSON<<ANNA<MARIA", otherNamesText: ["ERIKSSON<<ANNA"],
                personalNumberText: "ZE184226B",
                fullDateOfBirthRecord: LDSDate(value: "19690806", encoding: .text), placeOfBirthText: "ZENITH,UTOPIA",
                addressText: "17 EXAMPLE STREET<UTOPIA",
                telephoneText: "+00 555 0100", professionText: "SPECIMEN", titleText: "DR"
            ).encoded()
        files[dataGroup: 12] =
            AdditionalDocumentDetails(
                issuingAuthorityText: "UTOPIA PASSPORT OFFICE",
                dateOfIssueRecord: LDSDate(value: "19890624", encoding: .bcd),
                endorsementsOrObservationsText: "SPECIMEN, NOT VALID",
                dateAndTimeOfPersonalization: LDSDate(value: "19890601120000", encoding: .bcd),
                personalizationDeviceSerialNumberText: "EMRTD-SIM-1"
            ).encoded()
        if rich {
            // DG3 with an empty biometric group: the chip never releases it (EAC-protected).
            files[dataGroup: 3] = DER.tlv(ASN1Tag(0x63), DER.tlv(ASN1Tag(0x7F61), DER.integer(0)))
            files[dataGroup: 5] = DisplayedPortrait.encoded(images: [face])
            files[dataGroup: 7] = DisplayedSignatureOrUsualMark.encoded(images: [face])
            files[dataGroup: 13] = DER.tlv(ASN1Tag(0x6D), DER.utf8String("NATIONAL DATA"))
            files[dataGroup: 16] = PersonsToNotify.encoded(persons: [
                PersonToNotify(
                    nameText: "ERIKSSON<<LARS", telephoneText: "+00 555 0101", addressText: "17 EXAMPLE STREET<UTOPIA")
            ])
        }
        files = try withKeyFiles(files, credentials: chosen, layout: layout)
        let dataGroups = (1...16).compactMap { number in
            files[dataGroup: number].flatMap { _ in LDSFileKind.dataGroup(number) }
        }
        files.com = CommonFile.encoded(ldsVersion: "0108", unicodeVersion: "040000", dataGroups: dataGroups)
        return try sign(files, at: time, credentials: chosen, layout: layout)
    }

    /// The largest `faceSize`: 1 MB, beyond any issued face and within the reader's cap.
    public static let maximumFaceSize = 1 << 20

    /// The CSCA as PEM, for `--csca FILE` and OpenSSL.
    public var countrySigningCertificatePEM: String {
        let base64 = Data(countrySigningCertificate).base64EncodedString(options: [
            .lineLength64Characters, .endLineWithLineFeed,
        ])
        return "-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----\n"
    }
}
