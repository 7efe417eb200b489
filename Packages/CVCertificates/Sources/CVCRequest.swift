import ASN1

/// A certificate request (TR-03110 v1 C.2): a body with the applicant's new key and CHR, signed
/// with that key (the inner signature, proof of possession), optionally wrapped in an
/// authentication (67) signed by the applicant's current key, named by the outer CAR.
public struct CVCRequest: Sendable, Hashable {
    /// CAR (42) of the certification authority the applicant asks, if named.
    public let authorityReference: String?
    /// The new public key; ECDSA keys carry their domain parameters.
    public let publicKey: CVCPublicKey
    public let holderReference: String
    /// The body (7F4E) as encoded: the bytes the inner signature covers.
    public let body: [UInt8]
    public let innerSignature: [UInt8]
    /// The authentication's CAR and signature (over 7F21 ‖ 42), when the request has one.
    public let outerAuthorityReference: String?
    public let outerSignature: [UInt8]?

    /// The 7F21 request, or 67 around it when authenticated.
    public let encoded: [UInt8]

    /// Parses a request (7F21) or an authenticated one (67).
    public init(encoded bytes: some Collection<UInt8>) throws(CVCError) {
        guard bytes.count <= CVCertificate.maximumLength else {
            throw CVCError(.malformed, "a request of \(bytes.count) bytes (at most \(CVCertificate.maximumLength))")
        }
        let node: ASN1Node
        do { node = try ASN1Node.parse(bytes, rules: .der, maxDepth: 5) } catch {
            throw CVCError(.malformed, "not a CV certificate request: \(error)")
        }
        var request = node
        if node.tag == CVCTag.authentication {
            let parts = node.children
            guard parts.count == 3, parts[0].tag == CVCTag.certificate, parts[1].tag == CVCTag.authorityReference,
                parts[2].tag == CVCTag.signature, let outer = CVCertificate.reference(parts[1].content)
            else {
                throw CVCError(
                    .malformed, "an authenticated request (67) holds 7F21, a CAR (42) and a signature (5F37)")
            }
            request = parts[0]
            outerAuthorityReference = outer
            outerSignature = Array(parts[2].content)
        } else {
            outerAuthorityReference = nil
            outerSignature = nil
        }
        guard request.tag == CVCTag.certificate, request.children.count == 2, request.children[0].tag == CVCTag.body,
            request.children[1].tag == CVCTag.signature
        else {
            throw CVCError(.malformed, "not a CV certificate request: 7F21 holds a body (7F4E) and a signature (5F37)")
        }
        var fields = request.children[0].children[...]
        guard let profile = fields.popFirst(), profile.tag == CVCTag.profileIdentifier,
            profile.content.elementsEqual([0])
        else { throw CVCError(.malformed, "a request: its profile identifier (5F29) is not 00") }
        if fields.first?.tag == CVCTag.authorityReference, let car = fields.popFirst() {
            guard let reference = CVCertificate.reference(car.content) else {
                throw CVCError(.malformed, "a request: the CAR (42) is not 1–16 printable characters")
            }
            authorityReference = reference
        } else {
            authorityReference = nil
        }
        guard let keyNode = fields.popFirst(), keyNode.tag == CVCTag.publicKey, let chrNode = fields.popFirst(),
            chrNode.tag == CVCTag.holderReference, let chr = CVCertificate.reference(chrNode.content)
        else { throw CVCError(.malformed, "a request: no public key (7F49) and CHR (5F20) where they belong") }
        guard fields.isEmpty || (fields.count == 1 && fields.first?.tag == CVCTag.extensions) else {
            throw CVCError(.malformed, "request \(chr): fields after its CHR other than extensions (65)")
        }
        holderReference = chr
        publicKey = try CVCPublicKey(node: keyNode, holder: "request \(chr)")
        body = Array(request.children[0].encodedBytes)
        innerSignature = Array(request.children[1].content)
        encoded = Array(node.encodedBytes)
    }

    /// Makes a request for `key`'s public half, signed by it and, with `authenticatedBy`, by the
    /// applicant's current key under its CHR.
    public static func make(
        authorityReference: String?, key: CVCPrivateKey, algorithm: TerminalAuthenticationAlgorithm,
        holderReference: String,
        authenticatedBy: (reference: String, key: CVCPrivateKey, algorithm: TerminalAuthenticationAlgorithm)? = nil
    ) throws(CVCError) -> CVCRequest {
        var fields = [DER.tlv(CVCTag.profileIdentifier, [0])]
        if let authorityReference { fields.append(DER.tlv(CVCTag.authorityReference, Array(authorityReference.utf8))) }
        fields += [
            try key.publicKey(algorithm: algorithm, includingCurve: true).encoded,
            DER.tlv(CVCTag.holderReference, Array(holderReference.utf8)),
        ]
        let body = DER.constructed(CVCTag.body, fields)
        let inner = DER.constructed(
            CVCTag.certificate, [body, DER.tlv(CVCTag.signature, try key.sign(body, algorithm: algorithm))])
        guard let outer = authenticatedBy else { return try CVCRequest(encoded: inner) }
        let signed = inner + DER.tlv(CVCTag.authorityReference, Array(outer.reference.utf8))
        return try CVCRequest(
            encoded: DER.constructed(
                CVCTag.authentication,
                [signed, DER.tlv(CVCTag.signature, try outer.key.sign(signed, algorithm: outer.algorithm))]))
    }

    /// Whether the inner signature verifies with the request's own key.
    public func hasValidInnerSignature() throws(CVCError) -> Bool {
        try publicKey.isValidSignature(innerSignature, of: body, holder: "request \(holderReference)")
    }

    /// Whether the outer signature verifies with `key` (the applicant's current certificate's key,
    /// its curve inherited).
    public func hasValidOuterSignature(with key: CVCPublicKey) throws(CVCError) -> Bool {
        guard let outerSignature, let outerAuthorityReference else { return false }
        let inner = DER.constructed(CVCTag.certificate, [body, DER.tlv(CVCTag.signature, innerSignature)])
        return try key.isValidSignature(
            outerSignature, of: inner + DER.tlv(CVCTag.authorityReference, Array(outerAuthorityReference.utf8)),
            holder: outerAuthorityReference)
    }
}
