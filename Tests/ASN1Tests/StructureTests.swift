import ASN1
import Testing

/// What packages above share from ASN1: the TLV header reader, the OID registry and the
/// SignedData envelope.
@Suite struct StructureTests {
    // MARK: ASN1Header

    @Test func headerOfShortLongAndIndefiniteForms() throws {
        let short = try ASN1Header.read([0x30, 0x03, 0x02, 0x01, 0x05])
        #expect(short.tag == .sequence)
        #expect(short.length == 3)
        #expect(short.headerLength == 2)

        let long = try ASN1Header.read([0x5F, 0x1F, 0x82, 0x01, 0x2C])
        #expect(long.tag == ASN1Tag(0x5F1F))
        #expect(long.length == 300)
        #expect(long.headerLength == 5)

        let indefinite = try ASN1Header.read([0x30, 0x80, 0x00, 0x00])
        #expect(indefinite.length == nil)
        #expect(indefinite.headerLength == 2)
    }

    @Test func headerEndingEarlyIsTruncated() {
        for bytes: [UInt8] in [[], [0x5F], [0x30], [0x30, 0x82, 0x01]] {
            #expect {
                try ASN1Header.read(bytes)
            } throws: { ($0 as? ASN1Error)?.code == .truncated }
        }
    }

    @Test func lengthsTheRulesRefuse() {
        // nine length bytes, the reserved FF, and (in DER) a long form for a short length
        #expect(throws: ASN1Error.self) { try ASN1Header.read([0x04, 0x89] + [UInt8](repeating: 0, count: 9)) }
        #expect(throws: ASN1Error.self) { try ASN1Header.read([0x04, 0xFF]) }
        #expect(throws: Never.self) { try ASN1Header.read([0x04, 0x81, 0x05]) }
        #expect {
            try ASN1Header.read([0x04, 0x81, 0x05], rules: .der)
        } throws: { ($0 as? ASN1Error)?.code == .invalidLength }
    }

    @Test func lengthAloneAdvancesPastIt() throws {
        let bytes: ArraySlice<UInt8> = [0xEE, 0x82, 0x01, 0x00, 0xAA]
        var index = 1
        #expect(try ASN1Header.readLength(from: bytes, at: &index, rules: .der) == 256)
        #expect(index == 4)
    }

    // MARK: The OID registry

    @Test func constantsAreTheDottedOIDsAndTheirNames() {
        #expect(ASN1ObjectIdentifier.signedData.dotted == "1.2.840.113549.1.7.2")
        #expect(ASN1ObjectIdentifier.signedData.name == "id-signedData")
        #expect(ASN1ObjectIdentifier.ldsSecurityObject.name == "ldsSecurityObject")
        #expect(ASN1ObjectIdentifier.pace.name == "id-PACE")
        #expect(ASN1ObjectIdentifier.securityObject.name == "id-SecurityObject")
        #expect(KnownObjectIdentifiers.oid(named: "id-CA") == .chipAuthentication)
    }

    @Test func appendingArcsNamesTheProtocolBelow() {
        let gm = ASN1ObjectIdentifier.pace.appending(2, 4)
        #expect(gm.dotted == "0.4.0.127.0.7.2.2.4.2.4")
        #expect(gm.name == "id-PACE-ECDH-GM-AES-CBC-CMAC-256")
        #expect(gm.hasPrefix(.pace))
        #expect(
            ASN1ObjectIdentifier.terminalAuthentication.appending(contentsOf: [2, 3]).name == "id-TA-ECDSA-SHA-256")
    }

    // MARK: SignedDataEnvelope

    static func contentInfo(
        type: ASN1ObjectIdentifier = .signedData, eContent: [UInt8]? = [1, 2, 3], signers: Bool = true
    ) throws -> ASN1Node {
        var encapsulated = DER.objectIdentifier(.ldsSecurityObject)
        if let eContent { encapsulated += DER.tlv(.contextSpecific(0, constructed: true), DER.octetString(eContent)) }
        var signedData = [
            DER.integer(3), DER.set([]), DER.tlv(.sequence, encapsulated),
            DER.tlv(.contextSpecific(0, constructed: true), DER.sequence([DER.integer(1)])),
        ]
        if signers { signedData.append(DER.set([DER.sequence([DER.integer(1)]), DER.sequence([DER.integer(2)])])) }
        return try ASN1Node.parse(
            DER.sequence([
                DER.objectIdentifier(type), DER.tlv(.contextSpecific(0, constructed: true), DER.sequence(signedData)),
            ]))
    }

    @Test func envelopeGivesTheContentAndLeavesTheRestAsNodes() throws {
        let envelope = try SignedDataEnvelope(contentInfo: Self.contentInfo())
        #expect(envelope.version == 3)
        #expect(envelope.contentType == .ldsSecurityObject)
        #expect(envelope.content == [1, 2, 3])
        #expect(envelope.certificates?.count == 1)
        #expect(envelope.signerInfos.count == 2)
    }

    @Test func detachedContentIsNil() throws {
        #expect(try SignedDataEnvelope(contentInfo: Self.contentInfo(eContent: nil)).content == nil)
    }

    @Test func envelopeRefusesOtherContentAndMissingSigners() throws {
        #expect {
            try SignedDataEnvelope(contentInfo: Self.contentInfo(type: .data))
        } throws: { ($0 as? ASN1Error)?.code == .invalidValue }
        #expect {
            try SignedDataEnvelope(contentInfo: Self.contentInfo(signers: false))
        } throws: { ($0 as? ASN1Error)?.code == .missingElement }
    }
}
