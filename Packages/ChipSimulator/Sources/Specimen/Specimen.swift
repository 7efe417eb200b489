import ASN1
import Foundation

/// A document made at run time: its files with a valid EF.SOD, and the test PKI that signed it
/// (a fresh self-signed CSCA and a document signer under it, ECDSA P-256, SHA-256). The CSCA is
/// what a reader must be given to find the data `authenticated`.
public struct Specimen: Sendable {
    public var files: ChipFiles
    /// DER of the specimen's CSCA certificate.
    public let countrySigningCertificate: [UInt8]
    /// DER of the document signer certificate (also inside EF.SOD).
    public let documentSignerCertificate: [UInt8]

    /// The issuing state in the certificates' names (ISO 3166 alpha-2 is required there; the MRZ
    /// of the ICAO specimens uses the fictional "UTO").
    static let countryCode = "UT"

    /// Signs the data groups in `files` with a fresh test PKI and sets EF.SOD over all of them.
    /// EF.COM, EF.CardAccess and EF.CardSecurity are kept as given.
    public static func signing(_ files: ChipFiles, at time: Date = Date()) throws(ChipSimulatorError) -> Specimen {
        let authorityKey = try TestKeyPair.ellipticCurve("P-256")
        let signerKey = try TestKeyPair.ellipticCurve("P-256")
        let authorityName = TestCertificate.name([
            ("C", countryCode), ("O", "emrtd simulator"), ("CN", "emrtd simulator test CSCA"),
        ])
        let signerName = TestCertificate.name([
            ("C", countryCode), ("O", "emrtd simulator"), ("CN", "emrtd simulator document signer"),
        ])
        let authorityKeyIdentifier = try TestCertificate.keyIdentifier(
            ofSubjectPublicKeyInfo: authorityKey.subjectPublicKeyInfo())
        let day: TimeInterval = 86_400
        let authority = try TestCertificate.make(
            serial: 1, issuer: authorityName, subject: authorityName, subjectKey: authorityKey, issuerKey: authorityKey,
            authorityKeyIdentifier: authorityKeyIdentifier, isAuthority: true,
            notBefore: time.addingTimeInterval(-day), notAfter: time.addingTimeInterval(3650 * day))
        let signer = try TestCertificate.make(
            serial: 2, issuer: authorityName, subject: signerName, subjectKey: signerKey, issuerKey: authorityKey,
            authorityKeyIdentifier: authorityKeyIdentifier, isAuthority: false,
            notBefore: time.addingTimeInterval(-day), notAfter: time.addingTimeInterval(365 * day))
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
        return Specimen(files: signed, countrySigningCertificate: authority, documentSignerCertificate: signer)
    }

    /// The CSCA as PEM, for `--csca FILE` and OpenSSL.
    public var countrySigningCertificatePEM: String {
        let base64 = Data(countrySigningCertificate).base64EncodedString(options: [
            .lineLength64Characters, .endLineWithLineFeed,
        ])
        return "-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----\n"
    }
}
