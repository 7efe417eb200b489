import CVCertificates

/// `cvc`: a CV certificate or certificate request as `emrtd cvc` and a terminal's certificate
/// directory read them. Properties: an accepted certificate encodes back to the input, and its
/// chain check under itself as trust point ends in a typed error or a verdict, never a trap.
let cvcTarget = FuzzTarget(name: "cvc") { input in
    if let certificate = try? CVCertificate(encoded: input) {
        fuzzCheck(certificate.encoded == input, "a parsed certificate re-encodes to other bytes")
        _ = try? CVCChain(trustPoint: certificate, certificates: [certificate])
    }
    if let request = try? CVCRequest(encoded: input) {
        fuzzCheck(request.encoded == input, "a parsed request re-encodes to other bytes")
        _ = try? request.hasValidInnerSignature()
    }
}
