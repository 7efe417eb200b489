import ASN1
import CMS
import CryptoPrimitives
import Foundation

/// Whether a seal is what its issuing state signed: the verdict, in Passive Authentication's
/// terms, so that a seal and a chip read the same way.
public struct SealVerdict: Sendable, Hashable {
    public enum Status: String, Sendable, Hashable {
        /// The signature verifies under the signer certificate, which chains to a trusted CSCA.
        case authenticated
        /// Something verifiable failed: the signature, or the chain to a CSCA that was found.
        case denied
        /// Nothing failed, but the certificates needed are not trusted: no CSCA issued the signer
        /// certificate, or (for a VDS, which carries none) the signer certificate is not there.
        case authorityCertificatesNotProvided
    }

    public let status: Status
    public let signatureValid: Bool
    public let certificateChainValid: Bool
    /// `SHA256withECDSA`, …; nil when the signer is unknown.
    public let signatureAlgorithm: String?
    public let signerCertificate: Certificate?
    public let countrySigningCertificate: Certificate?
    /// When the certificates were checked: a VDS's signature date, else the time asked for.
    public let checkTime: Date
    public let errors: [SealVerificationError]
}

/// Why a seal is not authenticated; the verdict's `errors`.
public enum SealVerificationError: Sendable, Hashable, CustomStringConvertible {
    /// No trusted certificate has the VDS header's country, signer and serial number.
    case signerCertificateNotFound(String)
    /// The signature does not verify with the key of the certificate named.
    case signatureInvalid(signer: String)
    /// The signature zone is not r‖s for the key's curve, or the key is not an ECDSA key.
    case signatureUnusable(String)
    /// The seal carries no signature zone.
    case unsigned
    /// The signer certificate and its CSCA are of different countries (9303-12 §7.1.1).
    case countryMismatch(signer: String, authority: String)
    /// The seal's issuing country (a VDS or IDB header's, a VDS-NC's `hdr.is`) is not the signer
    /// certificate's country (two letters), by ISO 3166 and ICAO's own codes
    /// (`CMS.IssuingStateCountry`, the table the document's check uses).
    case issuingCountryMismatch(issuingCountry: String, signer: String)
    /// A rule of the signer certificate's chain (the same rules as a Document Signer's).
    case chain(PassiveAuthenticationError)

    public var code: String {
        switch self {
        case .signerCertificateNotFound: "signerCertificateNotFound"
        case .signatureInvalid: "signatureInvalid"
        case .signatureUnusable: "signatureUnusable"
        case .unsigned: "unsigned"
        case .countryMismatch: "countryMismatch"
        case .issuingCountryMismatch: "issuingCountryMismatch"
        case .chain(let error): error.code
        }
    }

    public var description: String {
        switch self {
        case .signerCertificateNotFound(let reference):
            "no trusted certificate is the seal's signer \(reference) (country, signer name and serial number)"
        case .signatureInvalid(let signer):
            "the signature does not verify with the key of \(signer): the seal or its signature was altered"
        case .signatureUnusable(let reason): "the signature cannot be checked: \(reason)"
        case .unsigned: "the seal has no signature zone"
        case .countryMismatch(let signer, let authority):
            "the signer certificate's country \(signer) is not its CSCA's \(authority)"
        case .issuingCountryMismatch(let issuingCountry, let signer):
            "the seal's issuing country \(issuingCountry) is not its signer certificate's country \(signer)"
        case .chain(let error): error.description
        }
    }
}

extension Seal {
    /// Verifies the seal's signature and its signer's chain to a CSCA in `trustStore`. A VDS's
    /// signer is looked up in the store by the header's country, signer and certificate reference,
    /// and its certificates are checked at the seal's signature date (a visa outlives the key
    /// that signed it); a VDS-NC carries its signer, an IDB carries it or names it by its SHA-1's
    /// last five bytes; those are checked at `time`.
    public func verify(trustStore: TrustStore, at time: Date) -> SealVerdict {
        switch self {
        case .vds(let seal):
            let checkTime = seal.header.signatureDate.date
            guard let signer = seal.signerCertificate(in: trustStore) else {
                return SealVerdict(
                    status: .authorityCertificatesNotProvided, signatureValid: false, certificateChainValid: false,
                    signatureAlgorithm: nil, signerCertificate: nil, countrySigningCertificate: nil,
                    checkTime: checkTime, errors: [.signerCertificateNotFound(seal.header.signerReference)])
            }
            return SealVerifier.verdict(
                signature: seal.signature, over: seal.signedBytes, hash: nil, signer: signer, trustStore: trustStore,
                at: checkTime, issuingCountry: seal.header.issuingCountry)
        case .idb(let seal):
            guard let signer = seal.signerCertificate(in: trustStore) else {
                let reference = seal.certificateReference.map { Hex.encode($0) } ?? "none (unsigned)"
                return SealVerdict(
                    status: .authorityCertificatesNotProvided, signatureValid: false, certificateChainValid: false,
                    signatureAlgorithm: nil, signerCertificate: nil, countrySigningCertificate: nil, checkTime: time,
                    errors: [.signerCertificateNotFound(reference)])
            }
            return SealVerifier.verdict(
                signature: seal.signature, over: seal.signedBytes, hash: seal.hashAlgorithm, signer: signer,
                trustStore: trustStore, at: time, issuingCountry: seal.issuingCountry)
        case .nonConstrained(let seal):
            return SealVerifier.verdict(
                signature: seal.signature, over: seal.signedBytes, hash: seal.hashAlgorithm,
                signer: seal.signerCertificate, trustStore: trustStore, at: time, issuingCountry: seal.issuingCountry)
        }
    }
}

extension SealHeader {
    /// Signer and certificate reference together (`DETS00027`), as a person looks it up.
    public var signerReference: String { signerIdentifier + certificateReference }
}

extension VisibleDigitalSeal {
    /// The certificate 9303-13 §2.2 names: subject country the signer identifier's first two
    /// letters, common name its last two, serial number the certificate reference (hexadecimal).
    public func signerCertificate(in trustStore: TrustStore) -> Certificate? {
        let signer = header.signerIdentifier.uppercased()
        let serial = header.certificateReference.uppercased().drop { $0 == "0" }
        return trustStore.certificates.first { certificate in
            certificate.subject.country == String(signer.prefix(2))
                && certificate.subject.commonName?.uppercased() == String(signer.dropFirst(2))
                && certificate.serialNumberHex.drop { $0 == "0" } == serial
        }
    }
}

extension IDBSeal {
    /// The certificate carried, else the trusted one whose SHA-1's last five bytes are the
    /// header's certificate reference.
    public func signerCertificate(in trustStore: TrustStore) -> Certificate? {
        if let signerCertificate { return try? Certificate(derEncoded: signerCertificate) }
        guard let certificateReference else { return nil }
        return trustStore.certificates.first { HashAlgorithm.sha1.hash($0.der).suffix(5) == certificateReference[...] }
    }
}

enum SealVerifier {
    /// `issuingCountry`, when given, must be the signer certificate's country (a signer without
    /// one, or a code neither ISO 3166 nor ICAO's, is not held against it); a C40 header pads a
    /// short code with spaces (`D  `), which are not part of it.
    static func verdict(
        signature: [UInt8]?, over signedBytes: [UInt8], hash: HashAlgorithm?, signer: Certificate,
        trustStore: TrustStore, at time: Date, issuingCountry: String? = nil
    ) -> SealVerdict {
        var errors: [SealVerificationError] = []
        let key = signer.publicKey
        let bits = key.sizeInBits ?? 0
        let hash = hash ?? hashForKey(bits: bits)
        var signatureValid = false
        if let signature {
            let half = (bits + 7) / 8
            if key.algorithmName != "EC" || half == 0 {
                errors.append(.signatureUnusable("a \(key.algorithmName) key, not ECDSA"))
            } else if signature.count != 2 * half {
                errors.append(.signatureUnusable("\(signature.count) bytes, not r‖s of \(2 * half) for the key"))
            } else {
                let der = DER.sequence([
                    DER.unsignedInteger(signature[..<half]), DER.unsignedInteger(signature[half...]),
                ])
                do {
                    signatureValid = try key.isValidSignature(der, over: signedBytes, algorithm: .ecdsa(hash))
                    if !signatureValid { errors.append(.signatureInvalid(signer: signer.identification)) }
                } catch {
                    errors.append(.signatureUnusable(error.reason))
                }
            }
        } else {
            errors.append(.unsigned)
        }
        // A signer is its own issuer only when its key verifies it (a signer named like its CSCA is not).
        let candidates = trustStore.issuers(of: signer).filter {
            $0 != signer || (try? signer.isSignature(verifiedBy: signer)) == true
        }
        let chain = CertificateChainVerifier(policies: [
            IssuerLinkPolicy(), IssuerSignaturePolicy(), IssuedWithinIssuerValidityPolicy(), ValidityPolicy(at: time),
            SealSignerKeyUsagePolicy(), RevocationPolicy(trustStore, at: time),
        ]).verify(signer, candidates: candidates)
        var chainValid = chain.isValid
        // With no candidate the verifier's one problem is issuerNotFound, naming the signer's issuer.
        errors += chain.problems.map(SealVerificationError.chain)
        if let authority = chain.issuer, let signerCountry = signer.subject.country,
            let authorityCountry = authority.subject.country, signerCountry != authorityCountry
        {
            errors.append(.countryMismatch(signer: signerCountry, authority: authorityCountry))
            chainValid = false
        }
        var countryMatches = true
        if let issuingCountry = issuingCountry?.filter({ $0 != " " }), let signerCountry = signer.subject.country,
            IssuingStateCountry.matches(cscaCountry: signerCountry, issuingState: issuingCountry) == false
        {
            errors.append(.issuingCountryMismatch(issuingCountry: issuingCountry, signer: signerCountry))
            countryMatches = false
        }
        let status: SealVerdict.Status =
            !countryMatches || !signatureValid
            ? .denied
            : chainValid ? .authenticated : candidates.isEmpty ? .authorityCertificatesNotProvided : .denied
        return SealVerdict(
            status: status, signatureValid: signatureValid, certificateChainValid: chainValid,
            signatureAlgorithm: SignatureAlgorithm.ecdsa(hash).description, signerCertificate: signer,
            countrySigningCertificate: chain.issuer, checkTime: time, errors: errors)
    }

    /// 9303-13 §2.5: the hash follows the key's size (SHA-224 for 224 bits, SHA-256 for 256, …).
    static func hashForKey(bits: Int) -> HashAlgorithm {
        switch bits {
        case ...224: .sha224
        case ...256: .sha256
        case ...384: .sha384
        default: .sha512
        }
    }
}

/// A seal signer's key usage: digitalSignature when the extension is there. Seal signers (the
/// Australian VDS-NC signer among them) often carry only an extended key usage.
struct SealSignerKeyUsagePolicy: CertificatePolicy {
    func check(_ certificate: Certificate, issuedBy issuer: Certificate) -> PassiveAuthenticationError? {
        guard let usage = certificate.extensions.keyUsage else { return nil }
        return usage.contains(.digitalSignature) ? nil : .keyUsageMissing("digitalSignature")
    }
}
