import ASN1

/// A card-verifiable certificate (7F21, TR-03110 v1 App. C / D): what a terminal presents to the
/// chip, which checks it with the key of the certificate above it. Kept with its encoded body, the
/// signed bytes, so verification never depends on re-encoding.
public struct CVCertificate: Sendable, Hashable, CustomStringConvertible {
    /// 5F29: 0, the only profile.
    public let profileIdentifier: UInt8
    /// CAR (42): the issuer's CHR.
    public let authorityReference: String
    public let publicKey: CVCPublicKey
    /// CHR (5F20): country code, holder mnemonic, sequence number.
    public let holderReference: String
    public let authorization: CertificateHolderAuthorization
    public let effectiveDate: CVCDate
    public let expirationDate: CVCDate
    /// Certificate extensions (65), kept as encoded.
    public let extensions: [UInt8]?
    /// The body (7F4E) as encoded: the bytes the signature covers.
    public let body: [UInt8]
    /// The signature (5F37): plain r‖s for ECDSA, the RSA signature.
    public let signature: [UInt8]

    /// The longest certificate accepted (an RSA-4096 CVCA with extensions fits in a quarter of it).
    public static let maximumLength = 8192

    /// The 7F21 data object.
    public var encoded: [UInt8] { DER.tlv(CVCTag.certificate, content) }

    /// The body and the signature: 7F21's content, what PSO:Verify Certificate sends.
    public var content: [UInt8] { body + DER.tlv(CVCTag.signature, signature) }

    /// Parses one certificate (7F21); trailing bytes are refused.
    public init(encoded bytes: some Collection<UInt8>) throws(CVCError) {
        guard bytes.count <= Self.maximumLength else {
            throw CVCError(.malformed, "a certificate of \(bytes.count) bytes (at most \(Self.maximumLength))")
        }
        let node: ASN1Node
        do { node = try ASN1Node.parse(bytes, rules: .der, maxDepth: 4) } catch {
            throw CVCError(.malformed, "not a CV certificate: \(error)")
        }
        try self.init(node: node)
    }

    init(node: ASN1Node) throws(CVCError) {
        guard node.tag == CVCTag.certificate, node.children.count == 2, node.children[0].tag == CVCTag.body,
            node.children[1].tag == CVCTag.signature
        else { throw CVCError(.malformed, "not a CV certificate: 7F21 holds a body (7F4E) and a signature (5F37)") }
        let bodyNode = node.children[0]
        let fields = bodyNode.children
        let expected = [
            CVCTag.profileIdentifier, CVCTag.authorityReference, CVCTag.publicKey, CVCTag.holderReference,
            CVCTag.holderAuthorization, CVCTag.effectiveDate, CVCTag.expirationDate,
        ]
        // The holder is not known until its field is read: errors before it name the position.
        let holder =
            fields.count > 3 && fields[3].tag == CVCTag.holderReference
            ? "certificate \(Self.reference(fields[3].content) ?? "with an unreadable CHR")" : "a certificate"
        guard fields.count == expected.count || (fields.count == 8 && fields[7].tag == CVCTag.extensions) else {
            throw CVCError(.malformed, "\(holder): its body has \(fields.count) fields, not 7 or 8")
        }
        for (field, tag) in zip(fields, expected) where field.tag != tag {
            throw CVCError(.malformed, "\(holder): field \(field.tag) where \(tag) belongs")
        }
        guard fields[0].content.count == 1, let profile = fields[0].content.first, profile == 0 else {
            throw CVCError(
                .unsupported, "\(holder): profile identifier (5F29) \(Hex.encode(fields[0].content)), not 00")
        }
        guard let car = Self.reference(fields[1].content) else {
            throw CVCError(.malformed, "\(holder): the CAR (42) is not 1–16 printable characters")
        }
        guard let chr = Self.reference(fields[3].content) else {
            throw CVCError(.malformed, "\(holder): the CHR (5F20) is not 1–16 printable characters")
        }
        profileIdentifier = profile
        authorityReference = car
        publicKey = try CVCPublicKey(node: fields[2], holder: holder)
        holderReference = chr
        authorization = try CertificateHolderAuthorization(node: fields[4], holder: holder)
        effectiveDate = try CVCDate(bcd: fields[5].content, field: "\(holder): the effective date (5F25)")
        expirationDate = try CVCDate(bcd: fields[6].content, field: "\(holder): the expiration date (5F24)")
        extensions = fields.count == 8 ? Array(fields[7].encodedBytes) : nil
        body = Array(bodyNode.encodedBytes)
        signature = Array(node.children[1].content)
        guard !signature.isEmpty else { throw CVCError(.malformed, "\(holder): an empty signature (5F37)") }
    }

    /// Makes and signs a certificate. A CVCA's ECDSA key should carry its curve; a self-signed
    /// CVCA has its own CHR as CAR and is signed by its own key.
    public static func issue(
        authorityReference: String, publicKey: CVCPublicKey, holderReference: String,
        authorization: CertificateHolderAuthorization, effectiveDate: CVCDate, expirationDate: CVCDate,
        signer: CVCPrivateKey, signingAlgorithm: TerminalAuthenticationAlgorithm
    ) throws(CVCError) -> CVCertificate {
        guard Self.reference(Array(authorityReference.utf8)) != nil, Self.reference(Array(holderReference.utf8)) != nil
        else { throw CVCError(.malformed, "a CAR or CHR is 1–16 printable ASCII characters") }
        let body = DER.constructed(
            CVCTag.body,
            [
                DER.tlv(CVCTag.profileIdentifier, [0]),
                DER.tlv(CVCTag.authorityReference, Array(authorityReference.utf8)),
                publicKey.encoded, DER.tlv(CVCTag.holderReference, Array(holderReference.utf8)), authorization.encoded,
                DER.tlv(CVCTag.effectiveDate, effectiveDate.bcd), DER.tlv(CVCTag.expirationDate, expirationDate.bcd),
            ])
        let signature = try signer.sign(body, algorithm: signingAlgorithm)
        return try CVCertificate(
            encoded: DER.constructed(CVCTag.certificate, [body, DER.tlv(CVCTag.signature, signature)]))
    }

    /// Whether the holder is its own issuer (a self-signed CVCA).
    public var isSelfSigned: Bool { authorityReference == holderReference }

    /// The reference's text: 1–16 characters of ISO/IEC 8859-1 printable ones.
    static func reference(_ bytes: some Collection<UInt8>) -> String? {
        guard (1...16).contains(bytes.count), bytes.allSatisfy({ (0x20...0x7E).contains($0) || $0 >= 0xA0 }) else {
            return nil
        }
        return String(bytes.map { Character(Unicode.Scalar($0)) })
    }

    public var description: String {
        var lines = [
            "CHR \(holderReference)", "CAR \(authorityReference)", "CHAT \(authorization)",
            "valid \(effectiveDate) to \(expirationDate)", "public key \(publicKey.algorithm)",
        ]
        switch publicKey.key {
        case .ecdsa(let point, let curve):
            if let curve {
                lines.append(
                    "  curve \(curve.standardized.map { "\($0.name) (explicit)" } ?? "explicit, not standardized")")
            }
            lines.append("  point \(Hex.encode(point))")
        case .rsa(let modulus, let exponent):
            lines.append("  modulus \(modulus.drop { $0 == 0 }.count * 8) bits, exponent \(Hex.encode(exponent))")
        }
        if let extensions { lines.append("extensions \(Hex.encode(extensions))") }
        lines.append("signature \(Hex.encode(signature))")
        return lines.joined(separator: "\n")
    }
}
