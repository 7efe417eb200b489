/// The object identifiers code acts on, each written once: packages compare and write these
/// constants, never dotted literals, and `KnownObjectIdentifiers` names them from the same
/// constants. Grouped by who defines them; the names are theirs in lowerCamel.
extension ASN1ObjectIdentifier {
    // Digests (NIST, OIW).
    public static let sha1: ASN1ObjectIdentifier = "1.3.14.3.2.26"
    public static let sha224: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.2.4"
    public static let sha256: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.2.1"
    public static let sha384: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.2.2"
    public static let sha512: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.2.3"

    // RSA (PKCS #1).
    public static let rsaEncryption: ASN1ObjectIdentifier = "1.2.840.113549.1.1.1"
    public static let sha1WithRSAEncryption: ASN1ObjectIdentifier = "1.2.840.113549.1.1.5"
    public static let mgf1: ASN1ObjectIdentifier = "1.2.840.113549.1.1.8"
    public static let rsassaPSS: ASN1ObjectIdentifier = "1.2.840.113549.1.1.10"
    public static let sha256WithRSAEncryption: ASN1ObjectIdentifier = "1.2.840.113549.1.1.11"
    public static let sha384WithRSAEncryption: ASN1ObjectIdentifier = "1.2.840.113549.1.1.12"
    public static let sha512WithRSAEncryption: ASN1ObjectIdentifier = "1.2.840.113549.1.1.13"
    public static let sha224WithRSAEncryption: ASN1ObjectIdentifier = "1.2.840.113549.1.1.14"

    // Elliptic curves and ECDSA (X9.62, SEC 1; BSI TR-03111's plain signatures; brainpool).
    public static let ecPublicKey: ASN1ObjectIdentifier = "1.2.840.10045.2.1"
    public static let primeField: ASN1ObjectIdentifier = "1.2.840.10045.1.1"
    public static let ecdsaWithSHA1: ASN1ObjectIdentifier = "1.2.840.10045.4.1"
    public static let ecdsaWithSHA224: ASN1ObjectIdentifier = "1.2.840.10045.4.3.1"
    public static let ecdsaWithSHA256: ASN1ObjectIdentifier = "1.2.840.10045.4.3.2"
    public static let ecdsaWithSHA384: ASN1ObjectIdentifier = "1.2.840.10045.4.3.3"
    public static let ecdsaWithSHA512: ASN1ObjectIdentifier = "1.2.840.10045.4.3.4"
    /// ecdsa-plain-signatures: `.1` SHA-1, `.2` SHA-224, `.3` SHA-256, `.4` SHA-384, `.5` SHA-512.
    public static let ecdsaPlainSignatures: ASN1ObjectIdentifier = "0.4.0.127.0.7.1.1.4.1"
    /// A curve outside the standardized domain parameters that old certificates still name.
    public static let brainpoolP160r1: ASN1ObjectIdentifier = "1.3.36.3.3.2.8.1.1.1"

    // Diffie-Hellman (PKCS #3, X9.42).
    public static let dhKeyAgreement: ASN1ObjectIdentifier = "1.2.840.113549.1.3.1"
    public static let dhPublicNumber: ASN1ObjectIdentifier = "1.2.840.10046.2.1"

    // CMS content types and signed attributes (PKCS #7, #9).
    public static let data: ASN1ObjectIdentifier = "1.2.840.113549.1.7.1"
    public static let signedData: ASN1ObjectIdentifier = "1.2.840.113549.1.7.2"
    public static let emailAddress: ASN1ObjectIdentifier = "1.2.840.113549.1.9.1"
    public static let contentType: ASN1ObjectIdentifier = "1.2.840.113549.1.9.3"
    public static let messageDigest: ASN1ObjectIdentifier = "1.2.840.113549.1.9.4"
    public static let signingTime: ASN1ObjectIdentifier = "1.2.840.113549.1.9.5"

    // X.500 attribute types and X.509 extensions.
    public static let commonName: ASN1ObjectIdentifier = "2.5.4.3"
    public static let countryName: ASN1ObjectIdentifier = "2.5.4.6"
    public static let organizationName: ASN1ObjectIdentifier = "2.5.4.10"
    public static let organizationalUnitName: ASN1ObjectIdentifier = "2.5.4.11"
    public static let subjectKeyIdentifier: ASN1ObjectIdentifier = "2.5.29.14"
    public static let keyUsage: ASN1ObjectIdentifier = "2.5.29.15"
    public static let privateKeyUsagePeriod: ASN1ObjectIdentifier = "2.5.29.16"
    public static let basicConstraints: ASN1ObjectIdentifier = "2.5.29.19"
    public static let authorityKeyIdentifier: ASN1ObjectIdentifier = "2.5.29.35"

    // ICAO 9303 (2.23.136.1.1) and the pre-standard eContentTypes EF.SOD still carries.
    public static let ldsSecurityObject: ASN1ObjectIdentifier = "2.23.136.1.1.1"
    public static let cscaMasterList: ASN1ObjectIdentifier = "2.23.136.1.1.2"
    /// id-AA: Active Authentication (ActiveAuthenticationInfo in DG14).
    public static let activeAuthentication: ASN1ObjectIdentifier = "2.23.136.1.1.5"
    /// The ICAO draft's ldsSecurityObject, before 2.23.136 was assigned.
    public static let ldsSecurityObjectDraft: ASN1ObjectIdentifier = "1.3.27.1.1.1"
    /// The Netherlands' SDU ldsSecurityObject of early passports.
    public static let ldsSecurityObjectSDU: ASN1ObjectIdentifier = "1.2.528.1.1006.1.20.1"

    // BSI TR-03110 and ICAO 9303-11 §9.2 (bsi-de 0.4.0.127.0.7).
    /// standardizedDomainParameters: an AlgorithmIdentifier whose parameter is an ID (9303-11 §9.5.1).
    public static let standardizedDomainParameters: ASN1ObjectIdentifier = "0.4.0.127.0.7.1.2"
    /// id-PK: Chip Authentication public keys (`.1` DH, `.2` ECDH).
    public static let chipAuthenticationPublicKey: ASN1ObjectIdentifier = "0.4.0.127.0.7.2.2.1"
    /// id-TA: Terminal Authentication (`.1` RSA, `.2` ECDSA, then the hash).
    public static let terminalAuthentication: ASN1ObjectIdentifier = "0.4.0.127.0.7.2.2.2"
    /// id-CA: Chip Authentication (`.1` DH, `.2` ECDH, then the cipher).
    public static let chipAuthentication: ASN1ObjectIdentifier = "0.4.0.127.0.7.2.2.3"
    /// id-PACE (`.1` DH-GM, `.2` ECDH-GM, `.3` DH-IM, `.4` ECDH-IM, `.6` ECDH-CAM, then the cipher).
    public static let pace: ASN1ObjectIdentifier = "0.4.0.127.0.7.2.2.4"
    /// The terminal roles of a CHAT: `.1` id-IS, `.2` id-AT, `.3` id-ST.
    public static let terminalRoles: ASN1ObjectIdentifier = "0.4.0.127.0.7.3.1.2"
    /// id-SecurityObject: EF.CardSecurity's eContentType.
    public static let securityObject: ASN1ObjectIdentifier = "0.4.0.127.0.7.3.2.1"
}
