import CMS
import Foundation

/// The instant every CMS target checks validity at (fixed, so runs are reproducible).
private let checkTime = Date(timeIntervalSince1970: 1_800_000_000)

/// X.509 as a file or a chip hands it over: DER (else PEM or any container `certificateInfos`
/// reads), the summary people see, and the certificate's signature checked with its own key
/// (self-signed CSCAs) through the document-signer chain policies, which reaches the RSA and
/// (explicit-parameter) ECDSA key parsers with hostile keys.
let x509Target = FuzzTarget(name: "x509") { input in
    guard let certificate = try? Certificate(derEncoded: input) else {
        _ = (try? certificateInfos(pemOrDer: input))?.map { $0.json.serialized() }
        return
    }
    _ = CertificateInfo(certificate).json.serialized()
    _ = try? certificate.isSignature(verifiedBy: certificate)
    _ = CertificateChainVerifier.documentSigner(at: checkTime).verify(certificate, candidates: [certificate])
}

/// Any CMS SignedData (EF.CardSecurity, a master list, a bare SOD ContentInfo) and its signer,
/// checked against a trust store holding the certificates the SignedData carries.
let signedDataTarget = FuzzTarget(name: "signedData") { input in
    guard let signedData = try? SignedData(contentInfo: input) else { return }
    let signer = SignerVerification(signedData, trustStore: TrustStore(signedData.certificates), at: checkTime)
    _ = signer.problems.map(\.description)
}

/// EF.SOD as the reader verifies it: Passive Authentication of one data group (its hash then
/// matches no SOD, which the verdict must say) with an empty trust store, and the verdict's JSON.
let securityObjectTarget = FuzzTarget(name: "sod") { input in
    let verdict = PassiveAuthentication.verify(
        securityObject: input, dataGroups: [1: [0x61, 0x00]], trustStore: TrustStore(), at: checkTime)
    fuzzCheck(verdict.status != .authenticated, "authenticated without a trusted CSCA")
    _ = verdict.json.serialized()
}

/// A CSCA master list as `emrtd masterlist` imports it: parsed, its signature and signer checked
/// against the list's own certificates as roots, then added to a trust store.
let masterListTarget = FuzzTarget(name: "masterList") { input in
    guard let list = try? MasterList(bytes: input) else { return }
    var store = TrustStore()
    let verification = store.add(masterList: list, roots: list.certificates, at: checkTime)
    _ = verification.problems.map(\.description)
}
