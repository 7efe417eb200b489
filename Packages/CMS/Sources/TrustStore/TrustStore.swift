import ASN1
import Foundation

/// The certificates Passive Authentication trusts: CSCAs and link certificates from PEM
/// bundles, DER files and verified master lists, deduplicated and indexed so that every
/// lookup is a dictionary access (loading N certificates is O(N), not O(N²)).
///
/// Document Signer certificates (from the ICAO PKD, for an EF.SOD that carries none) are kept in
/// the same store but never act as issuers: a certificate whose key usage lacks keyCertSign and
/// that is no CA (`isDocumentSignerOnly`) only answers `certificates(matching:)`.
public struct TrustStore: Sendable {
    /// Every certificate: CSCAs, link certificates and Document Signers.
    public private(set) var certificates: [Certificate] = []
    private var known: Set<[UInt8]> = []
    /// Issuer candidates (CSCAs and links only).
    private var bySubject: [DistinguishedName: [Int]] = [:]
    private var byKeyIdentifier: [[UInt8]: [Int]] = [:]
    /// Signer lookups (every certificate).
    private var anyByKeyIdentifier: [[UInt8]: [Int]] = [:]
    private var byIssuer: [DistinguishedName: [Int]] = [:]
    /// Certificate revocation lists by issuer name; each is checked against the issuer's key when
    /// used (`revocationDate(of:issuedBy:)`).
    public private(set) var revocationLists: [DistinguishedName: [CertificateRevocationList]] = [:]
    /// The master lists the default bundle was derived from, when it was loaded and its
    /// `SOURCES` names them (their signing times say how old the trust is).
    public internal(set) var defaultBundleSources: BundleSources?
    /// Deviation lists verified under a CSCA of this store (`add(deviationList:)`), applied by
    /// Passive Authentication to the documents of their CSCA's country.
    public internal(set) var deviationLists: [DeviationList] = []
    /// Deviation lists of a PEM bundle that were not added: why, in a sentence each (a list that
    /// no longer verifies is left out, said in `assemblyWarning`, not trusted).
    public private(set) var deviationListProblems: [String] = []

    public init() {}

    public init(_ certificates: [Certificate]) {
        add(certificates)
    }

    /// No CSCA (nor link certificate) is trusted: Document Signers and CRLs alone authenticate nothing.
    public var isEmpty: Bool { bySubject.isEmpty }

    /// How many Document Signer certificates the store holds (`isDocumentSignerOnly`).
    public var documentSignerCount: Int { certificates.count(where: \.isDocumentSignerOnly) }

    /// Adds certificates not already present; returns how many were new.
    @discardableResult
    public mutating func add(_ newCertificates: [Certificate]) -> Int {
        var added = 0
        for certificate in newCertificates where known.insert(certificate.sha256Fingerprint).inserted {
            let index = certificates.count
            certificates.append(certificate)
            byIssuer[certificate.issuer, default: []].append(index)
            let identifier = certificate.extensions.subjectKeyIdentifier
            if let identifier { anyByKeyIdentifier[identifier, default: []].append(index) }
            if !certificate.isDocumentSignerOnly {
                bySubject[certificate.subject, default: []].append(index)
                if let identifier { byKeyIdentifier[identifier, default: []].append(index) }
            }
            added += 1
        }
        return added
    }

    /// The store as one PEM bundle: every certificate, then every revocation list, then every
    /// deviation list (`CMS` blocks; what `emrtd masterlist import` and `emrtd trust` write and
    /// `DefaultTrustBundle.load` reads back).
    public var pem: String {
        certificates.map(\.pem).joined()
            + revocationLists.keys.sorted { $0.rfc4514 < $1.rfc4514 }.flatMap { revocationLists[$0] ?? [] }.map(\.pem)
            .joined()
            + deviationLists.map { PEM.encode($0.der, begin: PEM.beginCMS, end: PEM.endCMS) }.joined()
    }

    /// Adds a revocation list (kept once per content).
    public mutating func add(_ list: CertificateRevocationList) {
        guard !(revocationLists[list.issuer] ?? []).contains(list) else { return }
        revocationLists[list.issuer, default: []].append(list)
    }

    /// When `certificate` was revoked by a list that `issuer` signed; nil when no such list names it.
    public func revocationDate(of certificate: Certificate, issuedBy issuer: Certificate) -> Date? {
        (revocationLists[certificate.issuer] ?? []).lazy.filter { $0.isSigned(by: issuer) }
            .compactMap { $0.revocationDate(of: certificate) }.min()
    }

    /// Adds the certificates and revocation lists of a PEM bundle (`CERTIFICATE` and `X509 CRL`
    /// blocks), a DER certificate or a DER CRL; returns how many certificates were new. A master
    /// list must be verified first (`MasterList.verify`), so one is refused here. A bundle's
    /// deviation lists (`CMS` blocks) are added after its certificates, each only when it
    /// verifies under them (else it is one of `deviationListProblems`).
    @discardableResult
    public mutating func add(pemOrDer bytes: [UInt8]) throws(CMSError) -> Int {
        let lists = try CertificateRevocationList.all(in: bytes)
        for list in lists { add(list) }
        let deviationBlocks =
            try PEM.text(bytes).map { (text) throws(CMSError) in
                try PEM.blocks(in: text, begin: PEM.beginCMS, end: PEM.endCMS)
            } ?? []
        var added = 0
        if PEM.holdsCertificates(bytes) || (lists.isEmpty && deviationBlocks.isEmpty) {
            let file = try CertificateFile(bytes: bytes)
            if case .masterList = file {
                throw CMSError(.unrecognizedInput, "a master list is trusted only after checking it against a root")
            }
            added = add(file.certificates)
        }
        for (index, block) in deviationBlocks.enumerated() {
            do throws(CMSError) {
                let verification = add(deviationList: try DeviationList(bytes: block))
                if !verification.isTrusted {
                    deviationListProblems.append(
                        "deviation list \(index + 1) of the bundle does not verify: "
                            + verification.problems.map(\.description).joined(separator: "; "))
                }
            } catch {
                deviationListProblems.append("deviation list \(index + 1) of the bundle: \(error.reason)")
            }
        }
        return added
    }

    /// The certificates that may have issued `certificate`: those whose subject key identifier
    /// is its authority key identifier, then those whose subject is its issuer name (compared
    /// normalised), without repeats.
    public func issuers(of certificate: Certificate) -> [Certificate] {
        var indices: [Int] = []
        if let authority = certificate.extensions.authorityKeyIdentifier {
            indices += byKeyIdentifier[authority] ?? []
        }
        indices += bySubject[certificate.issuer] ?? []
        var seen = Set<Int>()
        return indices.filter { seen.insert($0).inserted }.map { certificates[$0] }
    }

    /// The certificates a SignerInfo names (for an EF.SOD that does not carry its DSC).
    public func certificates(matching identifier: SignerInfo.Identifier) -> [Certificate] {
        switch identifier {
        case .subjectKeyIdentifier(let keyIdentifier):
            return (anyByKeyIdentifier[keyIdentifier] ?? []).map { certificates[$0] }
        case .issuerAndSerialNumber(let issuer, _):
            return (byIssuer[issuer] ?? []).map { certificates[$0] }.filter(identifier.matches)
        }
    }
}

extension TrustStore {
    /// The store a reader trusts: the default bundle (`DefaultTrustBundle`, when
    /// `includingDefaultBundle`) plus every entry of `authorityCertificates` (a PEM bundle of
    /// certificates and CRLs, one DER certificate, one DER CRL, or one DER deviation list, added
    /// when it verifies under the store's CSCAs).
    ///
    /// - Returns: the store, and why the default bundle could not be used when it could not (the
    ///   store then holds the given CSCAs only: a reader says so in its warnings, it does not stop).
    /// - Throws: `CMSError` naming the entry (counted from 1) that does not parse or holds no
    ///   certificate, or `unreadableFile` when `EMRTD_CSCA_BUNDLE` names a missing file: a
    ///   caller's mistake, told before any chip is read.
    public static func assemble(includingDefaultBundle: Bool, authorityCertificates: [[UInt8]]) throws(CMSError)
        -> (store: TrustStore, defaultBundleProblem: CMSError?)
    {
        var store = TrustStore()
        var problem: CMSError?
        if includingDefaultBundle {
            do throws(CMSError) {
                store = try DefaultTrustBundle.load()
            } catch  where error.code == .unreadableFile {
                throw error
            } catch {
                problem = error
            }
        }
        var deviationLists: [(index: Int, list: DeviationList)] = []
        for (index, entry) in authorityCertificates.enumerated() {
            if PEM.text(entry) == nil, let list = try? DeviationList(bytes: entry) {
                deviationLists.append((index, list))
                continue
            }
            do throws(CMSError) {
                let lists = try CertificateRevocationList.all(in: entry)
                let certificates =
                    lists.isEmpty || PEM.holdsCertificates(entry) ? try CertificateFile(bytes: entry).certificates : []
                guard !certificates.isEmpty || !lists.isEmpty else {
                    throw CMSError(.unrecognizedInput, "it holds no certificate")
                }
                try store.add(pemOrDer: entry)
            } catch {
                throw CMSError(error.code, "authority certificate entry \(index + 1): \(error.reason)")
            }
        }
        // A deviation list is checked under every CSCA given, whatever the order of the entries.
        for (index, list) in deviationLists {
            let verification = store.add(deviationList: list)
            guard verification.isTrusted else {
                throw CMSError(
                    .unrecognizedInput,
                    "authority certificate entry \(index + 1): a deviation list that does not verify under a "
                        + "trusted CSCA: " + verification.problems.map(\.description).joined(separator: "; "))
            }
        }
        return (store, problem)
    }
}

extension TrustStore {
    /// What a reader or a tool says about the store it trusts, in one line, when something is
    /// amiss: no CSCA at all (every verdict would be `authorityCertificatesNotProvided`, so the
    /// user is told why before reading one), or a default bundle that exists but does not load
    /// while given CSCAs are used, or a default bundle whose newest master list was signed more
    /// than `BundleSources.maximumAge` ago, or a CRL past its nextUpdate (trust that has gone
    /// stale). Nil otherwise: a missing default bundle beside given CSCAs is
    /// the usual case of a caller that brings its own.
    public func assemblyWarning(defaultBundleProblem: CMSError?) -> String? {
        if isEmpty {
            return "no CSCA is trusted" + (defaultBundleProblem.map { " (\($0.reason))" } ?? "")
                + ": no document's data can be authenticated; import a master list or give CSCA certificates"
        }
        let now = Date()
        let lapsed = revocationLists.values.joined().filter { $0.nextUpdate.map { $0 < now } ?? false }
            .sorted { $0.issuer.rfc4514 < $1.issuer.rfc4514 }
        let revocation =
            lapsed.isEmpty
            ? nil
            : "certificate revocation lists past their nextUpdate, a certificate revoked since is not known: "
                + lapsed.map { "\($0.issuer.rfc4514) (due \(UTCDateTime($0.nextUpdate ?? now).isoDay))" }
                .joined(separator: ", ")
        let deviations =
            deviationListProblems.isEmpty
            ? nil : "deviation lists left out: " + deviationListProblems.joined(separator: "; ")
        let age = [defaultBundleSources?.freshnessWarning(at: now), revocation, deviations].compactMap { $0 }
        let stale = age.isEmpty ? nil : age.joined(separator: "; ")
        guard let defaultBundleProblem, defaultBundleProblem.code != .notFound else { return stale }
        return "the default CSCA bundle is unusable (\(defaultBundleProblem.reason)); only the given CSCAs are trusted"
    }
}
