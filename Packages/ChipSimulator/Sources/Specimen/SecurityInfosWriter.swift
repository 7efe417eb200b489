import ASN1
import Arithmetic
import CryptoPrimitives
import ICAO

/// Writes what a reader learns of the chip's keys (ICAO 9303-11 §9.2, BSI TR-03110-3 A.1): DG14's
/// SecurityInfos, DG15's SubjectPublicKeyInfo and EF.CardSecurity's SecurityInfos, for the keys
/// in a chip's credentials.
///
/// ```
/// ChipAuthenticationInfo ::= SEQUENCE { protocol id-CA-…, version INTEGER (1), keyId INTEGER OPTIONAL }
/// ChipAuthenticationPublicKeyInfo ::= SEQUENCE { protocol id-PK-DH | id-PK-ECDH,
///     chipAuthenticationPublicKey SubjectPublicKeyInfo, keyId INTEGER OPTIONAL }
/// ActiveAuthenticationInfo ::= SEQUENCE { protocol id-AA, version INTEGER (1),
///     signatureAlgorithm OBJECT IDENTIFIER }
/// ```
enum SecurityInfosWriter {

    /// DG14 (tag 6E): per Chip Authentication key a ChipAuthenticationInfo (unless the layout
    /// leaves it out) and a ChipAuthenticationPublicKeyInfo, with the key ID when the key has one;
    /// an ActiveAuthenticationInfo when the Active Authentication key is ECDSA. Nil when there is
    /// nothing to write.
    static func dataGroup14(_ credentials: Credentials, layout: SecurityInfoLayout) throws(ChipSimulatorError)
        -> [UInt8]?
    {
        var infos: [[UInt8]] = []
        for key in credentials.chipAuthenticationKeys {
            if layout.chipAuthenticationInfo {
                var fields = [DER.objectIdentifier(key.chipAuthenticationProtocol.identifier), DER.integer(1)]
                if let identifier = key.keyIdentifier { fields.append(DER.integer(identifier)) }
                infos.append(DER.sequence(fields))
            }
            infos.append(try chipAuthenticationPublicKeyInfo(key, layout: layout))
        }
        if case .ecdsa(_, let hash, _) = credentials.activeAuthenticationKey?.algorithm {
            infos.append(
                DER.sequence([
                    DER.objectIdentifier(ASN1ObjectIdentifier.activeAuthentication), DER.integer(1),
                    DER.objectIdentifier(signatureAlgorithm(hash)),
                ]))
        }
        guard !infos.isEmpty else { return nil }
        return DER.tlv(.application(14, constructed: true), DER.set(infos))
    }

    /// DG15 (tag 6F): the Active Authentication key's SubjectPublicKeyInfo.
    static func dataGroup15(_ key: ActiveAuthenticationKey, layout: SecurityInfoLayout) throws(ChipSimulatorError)
        -> [UInt8]
    {
        let info: [UInt8]
        switch key.algorithm {
        case .rsa(let pair, _):
            info = try pair.subjectPublicKeyInfo()
        case .ecdsa(let pair, _, _):
            guard case .ellipticCurve(let curve) = pair.domainParameters else {
                throw ChipSimulatorError("an ECDSA key off a curve")
            }
            let parameters: [UInt8]
            if !layout.explicitDomainParameters, let id = curve.standardParameterID,
                let oid = StandardizedDomainParameters(id: id)?.curveIdentifier
            {
                parameters = DER.objectIdentifier(oid)
            } else {
                parameters = try specifiedDomain(curve)
            }
            info = DER.sequence([
                DER.sequence([DER.objectIdentifier(ASN1ObjectIdentifier.ecPublicKey), parameters]),
                DER.bitString(pair.publicKey),
            ])
        }
        return DER.tlv(.application(15, constructed: true), info)
    }

    /// EF.CardSecurity's SecurityInfos for PACE-CAM (9303-11 §9.2.?): the PACEInfos of the offers
    /// and the ChipAuthenticationPublicKeyInfo of each key on a CAM offer's curve. Nil when the
    /// chip offers no CAM.
    static func cardSecurityContent(_ credentials: Credentials, layout: SecurityInfoLayout) throws(ChipSimulatorError)
        -> [UInt8]?
    {
        let camParameters = Set(
            credentials.paceOffers.filter { $0.paceProtocol.mapping == .chipAuthenticationMapping }.map(\.parameters))
        guard !camParameters.isEmpty else { return nil }
        var infos = credentials.paceOffers.map(paceInfo)
        for key in credentials.chipAuthenticationKeys
        where camParameters.contains(where: { $0.domainParameters == key.keyPair.domainParameters }) {
            infos.append(try chipAuthenticationPublicKeyInfo(key, layout: layout))
        }
        return DER.set(infos)
    }

    /// PACEInfo { protocol, version 2, parameterId } (9303-11 §9.2.1), as EF.CardAccess lists it.
    static func paceInfo(_ offer: PACEOffer) -> [UInt8] {
        DER.sequence([
            DER.objectIdentifier(offer.paceProtocol.identifier), DER.integer(2), DER.integer(offer.parameters.id),
        ])
    }

    /// What real chips' EF.CardAccess holds beside their PACEInfos (`ChipFault.clutteredCardAccess`):
    /// a SecurityInfo of an unknown OID, a TerminalAuthenticationInfo (id-TA, version 2), a PACEInfo
    /// of an id-PACE protocol no reader knows, and `offer`'s PACEInfo without its OPTIONAL
    /// parameter ID.
    static func clutter(before offer: PACEOffer) -> [[UInt8]] {
        [
            DER.sequence([DER.objectIdentifier("1.3.6.1.4.1.99999.1"), DER.integer(1)]),
            DER.sequence([DER.objectIdentifier(.terminalAuthentication), DER.integer(2)]),
            DER.sequence([DER.objectIdentifier("0.4.0.127.0.7.2.2.4.9.9"), DER.integer(2), DER.integer(13)]),
            DER.sequence([DER.objectIdentifier(offer.paceProtocol.identifier), DER.integer(2)]),
        ]
    }

    /// ChipAuthenticationPublicKeyInfo { id-PK-…, SubjectPublicKeyInfo, keyId }: the key with
    /// `standardizedDomainParameters` and its ID, or with its explicit parameters. A DH public
    /// key is a DER INTEGER inside the BIT STRING (TR-03110-3 D.3.2), a point is `04‖x‖y`.
    static func chipAuthenticationPublicKeyInfo(_ key: ChipAuthenticationKey, layout: SecurityInfoLayout)
        throws(ChipSimulatorError) -> [UInt8]
    {
        let pair = key.keyPair
        let protocolIdentifier = ASN1ObjectIdentifier.chipAuthenticationPublicKey.appending(
            pair.keyAgreement == .dh ? 1 : 2)
        let algorithm: [UInt8]
        let standardID: Int?
        switch pair.domainParameters {
        case .ellipticCurve(let curve): standardID = curve.standardParameterID
        case .dhGroup(let group): standardID = group.standardParameterID
        }
        if !layout.explicitDomainParameters, let standardID {
            algorithm = DER.sequence([
                DER.objectIdentifier(ASN1ObjectIdentifier.standardizedDomainParameters), DER.integer(standardID),
            ])
        } else {
            switch pair.domainParameters {
            case .ellipticCurve(let curve):
                algorithm = DER.sequence([
                    DER.objectIdentifier(ASN1ObjectIdentifier.ecPublicKey), try specifiedDomain(curve),
                ])
            case .dhGroup(let group):
                guard let order = group.subgroupOrder else {
                    throw ChipSimulatorError("explicit DH parameters need the subgroup order")
                }
                algorithm = DER.sequence([
                    DER.objectIdentifier(ASN1ObjectIdentifier.dhPublicNumber),
                    DER.sequence([
                        DER.unsignedInteger(group.p.minimalBytes), DER.unsignedInteger(group.g.minimalBytes),
                        DER.unsignedInteger(order.minimalBytes),
                    ]),
                ])
            }
        }
        let publicKey = pair.keyAgreement == .dh ? DER.unsignedInteger(pair.publicKey.drop { $0 == 0 }) : pair.publicKey
        var fields = [
            DER.objectIdentifier(protocolIdentifier), DER.sequence([algorithm, DER.bitString(publicKey)]),
        ]
        if let identifier = key.keyIdentifier { fields.append(DER.integer(identifier)) }
        return DER.sequence(fields)
    }

    /// SpecifiedECDomain { version 1, fieldID { prime-field, p }, curve { a, b }, base, order,
    /// cofactor } (X9.62, RFC 3279), field elements in the field's length.
    static func specifiedDomain(_ curve: EllipticCurve) throws(ChipSimulatorError) -> [UInt8] {
        do {
            let length = curve.coordinateLength
            return DER.sequence([
                DER.integer(1),
                DER.sequence([
                    DER.objectIdentifier(ASN1ObjectIdentifier.primeField), DER.unsignedInteger(curve.p.minimalBytes),
                ]),
                DER.sequence([
                    DER.octetString(try curve.a.bytes(length: length)),
                    DER.octetString(try curve.b.bytes(length: length)),
                ]),
                DER.octetString(try curve.encode(curve.generator)),
                DER.unsignedInteger(curve.order.minimalBytes),
                DER.unsignedInteger(curve.cofactor.minimalBytes),
            ])
        } catch {
            throw ChipSimulatorError("cannot encode the curve's parameters: \(error)")
        }
    }

    /// ecdsa-plain-SHA1/224/256/384/512 (TR-03111 §5.2.1), the hash of ActiveAuthenticationInfo.
    static func signatureAlgorithm(_ hash: HashAlgorithm) -> ASN1ObjectIdentifier {
        let arc: UInt64 =
            switch hash {
            case .sha1: 1
            case .sha224: 2
            case .sha256: 3
            case .sha384: 4
            case .sha512: 5
            }
        return ASN1ObjectIdentifier.ecdsaPlainSignatures.appending(arc)
    }
}
