import ASN1
import CMS
import COpenSSL
import Foundation
import Seals

/// `emrtd-bench seal`: seals verified per second (the bytes decoded, the signer looked up by the
/// header, r‖s checked with ECDSA P-256/SHA-256) against OpenSSL's `EVP_DigestVerify` on the
/// same signed bytes with the key made ready once; then with the signer's chain to its CSCA
/// against OpenSSL doing both verifications (`X509_verify` and the seal's). The seal is
/// Fuzz/Seeds/make-seal-seeds.py's visa. Both sides run the same ECDSA verifications (one, then
/// two: the CSCA's over the signer, the signer's over the seal; no self-signature checked on
/// either side) and are warmed and interleaved alike by `compare`; emrtd's side also decodes the
/// seal, looks the signer up and applies the chain's policies (issuer link, validity, key usage,
/// countries), which OpenSSL's side skips: the same work and a little more on emrtd's side.
let sealSuite = Suite(name: "seal", title: "seal: emrtd decode + verify vs OpenSSL ECDSA verification") { run in
    guard let bytes = Hex.decode(SealBenchFixture.visa.filter { !$0.isWhitespace }),
        let cscaDER = Data(base64Encoded: SealBenchFixture.csca).map(Array.init),
        let signerDER = Data(base64Encoded: SealBenchFixture.signer).map(Array.init),
        case .vds(let seal) = try Seal(barcode: bytes), let signature = seal.signature
    else { throw BenchFailure("bad seal fixture") }
    let csca = try Certificate(derEncoded: cscaDER)
    let signer = try Certificate(derEncoded: signerDER)
    let alone = TrustStore([signer])
    let chained = TrustStore([csca, signer])
    let at = Date()
    guard try Seal(barcode: bytes).verify(trustStore: chained, at: at).status == .authenticated else {
        throw BenchFailure("the fixture seal does not verify")
    }
    let der = DER.sequence([DER.unsignedInteger(signature[..<32]), DER.unsignedInteger(signature[32...])])
    guard let signerX509 = x509(signerDER), let cscaX509 = x509(cscaDER),
        let signerKey = X509_get0_pubkey(signerX509), let cscaKey = X509_get0_pubkey(cscaX509)
    else { throw BenchFailure("OpenSSL rejects the fixture certificates") }
    defer {
        X509_free(signerX509)
        X509_free(cscaX509)
    }
    var sink = 0
    let openSSLSeal = { (_: Int) in
        guard let context = EVP_MD_CTX_new() else { return }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, signerKey) == 1 else { return }
        sink &+= Int(EVP_DigestVerify(context, der, der.count, seal.signedBytes, seal.signedBytes.count))
    }
    run.compare(
        "VDS P-256, signer alone (1 ECDSA)", unit: "seals/s",
        emrtd: { _ in
            let verdict = try? Seal(barcode: bytes).verify(trustStore: alone, at: at)
            sink &+= verdict?.signatureValid == true ? 1 : 0
        }, reference: openSSLSeal)
    run.compare(
        "VDS P-256, signer and CSCA (2 ECDSA)", unit: "seals/s",
        emrtd: { _ in
            let verdict = try? Seal(barcode: bytes).verify(trustStore: chained, at: at)
            sink &+= verdict?.status == .authenticated ? 1 : 0
        },
        reference: { index in
            sink &+= Int(X509_verify(signerX509, cscaKey))
            openSSLSeal(index)
        })
    if sink == 42 { print("") }
}

private func x509(_ der: [UInt8]) -> OpaquePointer? {
    der.withUnsafeBufferPointer { buffer in
        var cursor = buffer.baseAddress
        return d2i_X509(nil, &cursor, buffer.count)
    }
}

/// A copy of the seal and certificates SealsTests and SealCLITests hold.
private enum SealBenchFixture {
    static let visa = """
        DC02D9C5D9CAC8A51A792DF5BA2E1CCA5D01022CDD52134A74DA1347C6FED95CB89F9FCE133C133C133C133C203833734AAF
        47F0C32F1A1E20EB2625393AFE3104031E0000050633BE1FED20C6FF409E0228F0FB65F3797C9C099775542AB63FEAF3F65E
        EAD989DE43BBBC0C90DDEDDB1FAE62A80E1A6F8B5BD8667C2A77263B61637709FE49CC7777242600D7D3CF
        """
    static let csca =
        "MIIBXjCCAQOgAwIBAgIBATAKBggqhkjOPQQDAjAkMQswCQYDVQQGEwJVVDEVMBMGA1UEAwwMVVQgU2VhbCBDU0NBMB4XDTI2MDEwMTAwMDAwMFoXDTM1MTIzMDAwMDAwMFowJDELMAkGA1UEBhMCVVQxFTATBgNVBAMMDFVUIFNlYWwgQ1NDQTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABDBVTqkUcY214uu7WoNGzOwvKFe/AOtq+C9Y9bUL0y1AuyUIAll+7ox4wzXdkiiLUITXuezgZ3Fl/BdB8ObJpz2jJjAkMA4GA1UdDwEB/wQEAwIBBjASBgNVHRMBAf8ECDAGAQH/AgEAMAoGCCqGSM49BAMCA0kAMEYCIQDbYa0SQMSh4eoAQ5SpMj/JQaVbGiwrcpv7PDwfw0VpOQIhANvG4gbZ6GZODp7tNIQdRRH7uPU56ICl16y3DEppGDh8"
    static let signer =
        "MIIBTDCB86ADAgECAgFcMAoGCCqGSM49BAMCMCQxCzAJBgNVBAYTAlVUMRUwEwYDVQQDDAxVVCBTZWFsIENTQ0EwHhcNMjYwMTAxMDAwMDAwWhcNMzUxMjMwMDAwMDAwWjAaMQswCQYDVQQGEwJVVDELMAkGA1UEAwwCVFMwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAATtzFoET+xF7sJsdt4KNl7/DXoasQXnZOcJ5M9Jw/jBOfURDGY//bvWVeoOjb+0y7GjM0Du1i1s7aj0YMyvaxFFoyAwHjAOBgNVHQ8BAf8EBAMCB4AwDAYDVR0TAQH/BAIwADAKBggqhkjOPQQDAgNIADBFAiAiGWx+0rwc+WWpHNBeyx28yOYw8dskmMD73xXvgXWrjQIhAPhw0HZI6Lfn88BqrOeA4s9YOOGbsjOV2037ABLbVBjY"
}
