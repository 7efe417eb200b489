import CryptoPrimitives
import Foundation

/// Passive Authentication (ICAO 9303-11 §5.1): is the data on the chip what the issuing
/// state signed?
public enum PassiveAuthentication {
    /// Verifies EF.SOD as read (`77` …) and the data groups read (number → the bytes read,
    /// hashed as they are, never re-encoded) against `trustStore` at `time`.
    /// Never throws: an unreadable EF.SOD is a `denied` verdict saying why.
    /// `issuingState` (DG1's, when the caller parsed it) must belong to the CSCA's country
    /// (`IssuingStateCountry`); a mismatch is denied. `documentCode` and `documentNumber` (DG1's
    /// too) narrow the trust store's deviation lists to the documents they name; every listed
    /// deviation that concerns the document is a `listedDeviation` among the errors (the
    /// status is what the checks say: `DeviationList.Category`).
    public static func verify(
        securityObject bytes: [UInt8], dataGroups: [Int: [UInt8]], trustStore: TrustStore, at time: Date,
        issuingState: String? = nil, documentCode: String? = nil, documentNumber: String? = nil
    ) -> DataAuthenticationStatus {
        do {
            let securityObject = try DocumentSecurityObject(bytes: bytes)
            return verify(
                securityObject, dataGroups: dataGroups, trustStore: trustStore, at: time, issuingState: issuingState,
                documentCode: documentCode, documentNumber: documentNumber)
        } catch {
            let hashes = hashResults(expected: [:], hashAlgorithm: nil, dataGroups: dataGroups)
            return DataAuthenticationStatus(
                status: .denied, sodSignatureValid: false, certificateChainValid: false,
                dataGroupHashesValid: hashes.results.allSatisfy { $0.status != .invalid },
                dataGroupHashes: hashes.results, hashAlgorithm: nil, signatureAlgorithm: nil,
                documentSignerCertificate: nil, countrySigningCertificate: nil, issuingCountry: nil,
                failures: [.malformedSignedData(error.reason)] + hashes.errors)
        }
    }

    /// Verifies a parsed EF.SOD; see `verify(securityObject:dataGroups:trustStore:at:)`.
    public static func verify(
        _ securityObject: DocumentSecurityObject, dataGroups: [Int: [UInt8]], trustStore: TrustStore, at time: Date,
        issuingState: String? = nil, documentCode: String? = nil, documentNumber: String? = nil
    ) -> DataAuthenticationStatus {
        let hashes = hashResults(
            expected: securityObject.dataGroupHashes, hashAlgorithm: securityObject.hashAlgorithm,
            dataGroups: dataGroups)
        let signer = SignerVerification(securityObject.signedData, trustStore: trustStore, at: time)
        let hashesValid = hashes.results.allSatisfy { $0.status != .invalid }
        let unchecked = uncheckedMandatoryDataGroups(hashes.results)
        var mismatch: [PassiveAuthenticationError] = []
        if signer.chainValid, let issuingState, let country = signer.countrySigner?.subject.country,
            IssuingStateCountry.matches(cscaCountry: country, issuingState: issuingState) == false
        {
            mismatch.append(.countryMismatch(cscaCountry: country, issuingState: issuingState))
        }
        let deviations =
            signer.documentSigner.map {
                trustStore.deviations(
                    signer: $0, authority: signer.countrySigner, documentCode: documentCode,
                    documentNumber: documentNumber)
            } ?? []

        let status: DataStatus
        if !unchecked.isEmpty || !mismatch.isEmpty {
            status = .denied
        } else if signer.signatureValid && hashesValid && signer.chainValid {
            status = .authenticated
        } else if signer.signatureValid && hashesValid && signer.issuerMissing {
            status = .authorityCertificatesNotProvided
        } else {
            status = .denied
        }
        return DataAuthenticationStatus(
            status: status, sodSignatureValid: signer.signatureValid, certificateChainValid: signer.chainValid,
            dataGroupHashesValid: hashesValid, dataGroupHashes: hashes.results,
            hashAlgorithm: securityObject.hashAlgorithm.displayName,
            signatureAlgorithm: signer.signerInfo.map {
                $0.signatureAlgorithm?.description ?? $0.signatureAlgorithmIdentifier.dotted
            },
            documentSignerCertificate: signer.documentSigner.map(CertificateInfo.init),
            countrySigningCertificate: signer.countrySigner.map(CertificateInfo.init),
            issuingCountry: signer.documentSigner.flatMap { $0.issuer.country ?? $0.subject.country },
            failures: signer.problems + hashes.errors
                + unchecked.map(PassiveAuthenticationError.mandatoryDataGroupNotChecked) + mismatch + deviations)
    }

    /// The data groups every document has (ICAO 9303-10 §4.7: DG1 the MRZ, DG2 the face). The data
    /// is authenticated only when both were read and match their hashes: a signature over hashes
    /// of data nobody compared proves nothing about the document in hand.
    public static let mandatoryDataGroups = [1, 2]

    /// The mandatory data groups without a hash comparison (not read, or not hashed in EF.SOD);
    /// one that was compared and differs is already a `dataGroupHashMismatch`.
    static func uncheckedMandatoryDataGroups(_ results: [DataGroupHash]) -> [Int] {
        mandatoryDataGroups.filter { number in
            guard let result = results.first(where: { Int($0.dataGroupNumber) == number }) else { return true }
            return result.expectedHash == nil || result.computedHash == nil
        }
    }

    /// Each data group hashed or read, sorted by number, and the errors for those that fail.
    static func hashResults(expected: [Int: [UInt8]], hashAlgorithm: HashAlgorithm?, dataGroups: [Int: [UInt8]])
        -> (results: [DataGroupHash], errors: [PassiveAuthenticationError])
    {
        var results: [DataGroupHash] = []
        var errors: [PassiveAuthenticationError] = []
        for number in Set(expected.keys).union(dataGroups.keys).sorted() {
            let expectedHash = expected[number]
            let computedHash = dataGroups[number].flatMap { bytes in hashAlgorithm.map { $0.hash(bytes) } }
            let status: HashStatus
            switch (expectedHash, dataGroups[number]) {
            case (nil, _):
                status = .invalid
                errors.append(.dataGroupNotHashed(number))
            case (_, nil):
                status = .notRead
            case (let expectedHash?, _):
                status = expectedHash == computedHash ? .valid : .invalid
                if status == .invalid { errors.append(.dataGroupHashMismatch(number)) }
            }
            results.append(
                DataGroupHash(
                    dataGroupNumber: UInt8(clamping: number), status: status, expectedHash: expectedHash,
                    computedHash: computedHash))
        }
        return (results, errors)
    }
}

/// The signer side of a SignedData check, shared by EF.SOD and EF.CardSecurity: find the
/// signer's certificate (carried, or in the trust store), check the signature bound to
/// `SignerInfo.sid`, then the certificate's chain to a trusted CSCA.
public struct SignerVerification: Sendable {
    public let signerInfo: SignerInfo?
    public let documentSigner: Certificate?
    public let countrySigner: Certificate?
    public let signatureValid: Bool
    public let chainValid: Bool
    /// No trusted certificate matches the signer certificate's issuer.
    public let issuerMissing: Bool
    public let problems: [PassiveAuthenticationError]

    public init(_ signedData: SignedData, trustStore: TrustStore, at time: Date) {
        var problems: [PassiveAuthenticationError] = []
        signerInfo = signedData.signerInfos.first
        var documentSigner: Certificate?
        var identifierMatches = false
        if let signerInfo {
            documentSigner =
                signedData.certificates(matching: signerInfo).first
                ?? trustStore.certificates(matching: signerInfo.identifier).first
            identifierMatches = documentSigner != nil
            if documentSigner == nil, let carried = signedData.certificates.first {
                documentSigner = carried
                problems.append(.signerIdentifierMismatch)
            }
        } else {
            problems.append(.malformedSignedData("no SignerInfo"))
        }
        self.documentSigner = documentSigner
        guard let signerInfo, let documentSigner else {
            if signerInfo != nil { problems.append(.documentSignerNotFound) }
            (countrySigner, signatureValid, chainValid, issuerMissing) = (nil, false, false, false)
            self.problems = problems
            return
        }
        let signatureProblems = signedData.signatureProblems(of: signerInfo, certificate: documentSigner)
        signatureValid = identifierMatches && signatureProblems.isEmpty
        problems += signatureProblems

        let candidates = trustStore.issuers(of: documentSigner)
        let chain = CertificateChainVerifier.documentSigner(at: time, revocations: trustStore).verify(
            documentSigner, candidates: candidates)
        countrySigner = chain.issuer
        // The CSCA itself, revoked by a list it (or the CSCA with its name) signed.
        var cscaProblems: [PassiveAuthenticationError] = []
        if let csca = chain.issuer, let date = trustStore.revocationDate(of: csca, issuedBy: csca), date <= time {
            cscaProblems.append(.certificateRevoked(certificate: csca.identification, revocationDate: date))
        }
        chainValid = chain.isValid && cscaProblems.isEmpty
        issuerMissing = candidates.isEmpty
        self.problems = problems + chain.problems + cscaProblems
    }
}
