import ASN1
import CryptoPrimitives
import Foundation

/// Writes EF.SOD: a CMS SignedData (RFC 5652) over an LDSSecurityObject (9303-10 §4.6.2), signed
/// by the document signer with ECDSA-SHA256 over the DER signed attributes; and EF.CardSecurity,
/// the same SignedData over SecurityInfos (content type id-SecurityObject, 9303-11 §9.2).
///
/// ```
/// LDSSecurityObject ::= SEQUENCE {
///     version LDSSecurityObjectVersion,
///     hashAlgorithm DigestAlgorithmIdentifier,
///     dataGroupHashValues SEQUENCE SIZE (2..ub-DataGroups) OF DataGroupHash }
/// DataGroupHash ::= SEQUENCE { dataGroupNumber DataGroupNumber, dataGroupHashValue OCTET STRING }
/// ```
enum SecurityObjectWriter {

    /// EF.SOD (tag 77) hashing every data group in `dataGroups` (number → file bytes) with SHA-256.
    static func securityObject(
        dataGroups: [Int: [UInt8]], signer: TestKeyPair, signerCertificate: [UInt8], signingTime: Date
    ) throws(ChipSimulatorError) -> [UInt8] {
        let sha256Identifier = DER.sequence([DER.objectIdentifier(ASN1ObjectIdentifier.sha256)])
        let hashes = dataGroups.keys.sorted().map { number in
            DER.sequence([DER.integer(number), DER.octetString(HashAlgorithm.sha256.hash(dataGroups[number] ?? []))])
        }
        let content = DER.sequence([DER.integer(0), sha256Identifier, DER.sequence(hashes)])
        let signed = try contentInfo(
            contentType: ASN1ObjectIdentifier.ldsSecurityObject, content: content, signer: signer,
            signerCertificate: signerCertificate,
            signingTime: signingTime)
        return DER.tlv(.application(23, constructed: true), signed)
    }

    /// EF.CardSecurity: a ContentInfo with SignedData over `securityInfos` (a DER SET of
    /// SecurityInfo), content type id-SecurityObject, signed like EF.SOD.
    static func cardSecurity(
        securityInfos: [UInt8], signer: TestKeyPair, signerCertificate: [UInt8], signingTime: Date
    ) throws(ChipSimulatorError) -> [UInt8] {
        try contentInfo(
            contentType: ASN1ObjectIdentifier.securityObject, content: securityInfos, signer: signer,
            signerCertificate: signerCertificate,
            signingTime: signingTime)
    }

    /// ContentInfo { ASN1ObjectIdentifier.signedData, SignedData { version 3, SHA-256, eContent of `contentType`, the
    /// signer's certificate, one SignerInfo with contentType, messageDigest and signingTime } }.
    static func contentInfo(
        contentType: ASN1ObjectIdentifier, content: [UInt8], signer: TestKeyPair, signerCertificate: [UInt8],
        signingTime: Date
    ) throws(ChipSimulatorError) -> [UInt8] {
        let sha256Identifier = DER.sequence([DER.objectIdentifier(ASN1ObjectIdentifier.sha256)])
        let attributes = [
            DER.sequence([
                DER.objectIdentifier(ASN1ObjectIdentifier.contentType), DER.set([DER.objectIdentifier(contentType)]),
            ]),
            DER.sequence([
                DER.objectIdentifier(ASN1ObjectIdentifier.messageDigest),
                DER.set([DER.octetString(HashAlgorithm.sha256.hash(content))]),
            ]),
            DER.sequence([DER.objectIdentifier(ASN1ObjectIdentifier.signingTime), DER.set([DER.time(signingTime)])]),
        ]
        // The signature covers the attributes as a DER SET; they travel as [0] IMPLICIT.
        let signedAttributes = DER.set(attributes)
        let signature = try signer.signSHA256(signedAttributes)
        guard let attributesContent = try? ASN1Node.parse(signedAttributes, rules: .der).content else {
            throw ChipSimulatorError("cannot re-read the signed attributes")
        }
        let signerInfo = DER.sequence([
            DER.integer(1),
            try issuerAndSerialNumber(of: signerCertificate),
            sha256Identifier,
            DER.tlv(.contextSpecific(0, constructed: true), attributesContent),
            DER.sequence([DER.objectIdentifier(ASN1ObjectIdentifier.ecdsaWithSHA256)]),
            DER.octetString(signature),
        ])
        let signed = DER.sequence([
            DER.integer(3),
            DER.set([sha256Identifier]),
            DER.sequence([
                DER.objectIdentifier(contentType),
                DER.tlv(.contextSpecific(0, constructed: true), DER.octetString(content)),
            ]),
            DER.tlv(.contextSpecific(0, constructed: true), signerCertificate),
            DER.set([signerInfo]),
        ])
        return DER.sequence([
            DER.objectIdentifier(ASN1ObjectIdentifier.signedData),
            DER.tlv(.contextSpecific(0, constructed: true), signed),
        ])
    }

    /// The ContentInfo with one bit of its first SignerInfo's signature flipped (the
    /// `forgedCardSecurity` fault); nil when `contentInfo` is not a SignedData with a signature.
    static func withForgedSignature(_ contentInfo: [UInt8]) -> [UInt8]? {
        guard let node = try? ASN1Node.parse(contentInfo, rules: .ber), node.children.count == 2,
            let signed = node.children[1].children.first, let signerInfos = signed.children.last,
            let signerInfo = signerInfos.children.first,
            let signature = signerInfo.children.last(where: { $0.tag == .octetString }), !signature.content.isEmpty
        else { return nil }
        var forged = contentInfo
        forged[signature.content.endIndex - 1] ^= 0x01
        return forged
    }

    /// The certificate's issuer Name and serialNumber, copied byte for byte.
    private static func issuerAndSerialNumber(of certificate: [UInt8]) throws(ChipSimulatorError) -> [UInt8] {
        guard let node = try? ASN1Node.parse(certificate, rules: .der), let toBeSigned = node.children.first,
            toBeSigned.children.count > 3
        else { throw ChipSimulatorError("cannot read the document signer certificate") }
        let serial = toBeSigned.children[1]
        let issuer = toBeSigned.children[3]
        return DER.sequence([Array(issuer.encodedBytes), Array(serial.encodedBytes)])
    }
}
