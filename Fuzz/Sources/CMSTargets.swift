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
        _ = certificateInfos(pemOrDer: Data(input)).map { $0.json.serialized() }
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
/// against the list's own certificates as roots, then added to a trust store; and the input as a
/// deviation list (`emrtd trust update FILE.dl`, `--deviation-list`), checked under the
/// certificates it carries, its deviations matched against them and the bundle written.
let masterListTarget = FuzzTarget(name: "masterList") { input in
    if let deviations = try? DeviationList(bytes: input) {
        var store = TrustStore(deviations.signedData.certificates)
        _ = store.add(deviationList: deviations).problems.map(\.description)
        for certificate in deviations.signedData.certificates {
            _ = store.deviations(signer: certificate, authority: certificate, documentCode: "P", documentNumber: "X")
                .map(\.description)
        }
        _ = deviations.deviations.flatMap(\.descriptions).map(\.sentence)
        _ = store.pem
    }
    guard let list = try? MasterList(bytes: input) else { return }
    var store = TrustStore()
    let verification = store.add(masterList: list, roots: list.certificates, at: checkTime)
    _ = verification.problems.map(\.description)
}

/// An ICAO PKD download as `emrtd masterlist import FILE.ldif` reads it: LDIF unfolded and
/// decoded, each entry's certificate, CRL or master list parsed, then everything added to a trust
/// store (master lists after a check against their own certificates); and the input as a lone
/// CRL, whose revocation lookup and signature check run against itself as issuer.
let pkdTarget = FuzzTarget(name: "pkd") { input in
    if let crl = try? CertificateRevocationList(derEncoded: input) {
        _ = crl.revoked.count
        _ = crl.pem
    }
    guard let download = try? PKDLDIF(bytes: input) else { return }
    fuzzCheck(download.problems.count <= download.entryCount * 16, "more problems than attributes")
    var store = TrustStore()
    store.add(download.certificates)
    for list in download.revocationLists { store.add(list) }
    for list in download.masterLists { _ = store.add(masterList: list, roots: list.certificates, at: checkTime) }
    for certificate in download.certificates {
        _ = store.revocationDate(of: certificate, issuedBy: certificate)
    }
    _ = store.pem
}
