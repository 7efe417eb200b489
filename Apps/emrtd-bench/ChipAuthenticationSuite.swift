import ASN1
import Arithmetic
import COpenSSL
import ChipAuthentication
import CryptoPrimitives
import Foundation
import ICAO
import LDS
import OpenSSLReference
import Secrets

/// `emrtd-bench chip`: what proving the chip genuine costs the reader, beside OpenSSL doing the
/// same operations in the same run.
///
/// - Chip Authentication's key agreement (a fresh ephemeral key pair, then K with the chip's static
///   key) on brainpoolP256r1, P-256, brainpoolP384r1 and the 2048-bit group 2; OpenSSL: the two
///   scalar multiplications (`EC_POINT_mul`), or the two exponentiations (`BN_mod_exp_mont_consttime`).
/// - Active Authentication, DG15's key made ready once on both sides: the real RSA-1792 answer of
///   the vectors verified against its DG15 (raw
///   RSA, ISO/IEC 9796-2 parsing, SHA-256 of M1 and the challenge); OpenSSL: `EVP_PKEY_verify_recover`
///   without padding, SHA-256 and a comparison (no 9796-2 parsing). ECDSA on brainpoolP256r1 and
///   P-256 with OpenSSL's signatures; OpenSSL: SHA-256 and `ECDSA_do_verify`.
/// - PACE-CAM's proof (ICAO App. I): CA_IC · PK_IC against PK_Map,IC; OpenSSL: the static key
///   decoded, `EC_POINT_mul`, the product encoded and compared.
let chipAuthenticationSuite = Suite(
    name: "chip",
    title: "chip: emrtd ChipAuthentication vs OpenSSL EC_POINT_mul, BN_mod_exp_mont_consttime, RSA, ECDSA_do_verify"
) { run in
    try benchKeyAgreements(run)
    try benchRSAActiveAuthentication(run)
    try benchECDSAActiveAuthentication(run)
    try benchChipAuthenticationMapping(run)
}

private func benchKeyAgreements(_ run: BenchRun) throws {
    var sink = 0
    for parameters in [StandardizedDomainParameters.brainpoolP256r1, .secp256r1, .brainpoolP384r1] {
        guard let curve = parameters.curve, let reference = OpenSSLCurve(parameterID: parameters.id) else {
            throw BenchFailure("no curve \(parameters.name)")
        }
        let domain = try KeyAgreementDomain(standardized: parameters.id)
        let chipKey = try domain.publicKey(try curve.encode(curve.multiplyGenerator(by: BigInt(0x1234_5678))))
        let chipKeySSL = reference.point(chipKey.encoded)
        let scalars = try (0..<16).map { _ in openSSLNumber(try BigInt.random(below: curve.order)) }
        defer {
            EC_POINT_free(chipKeySSL)
            for scalar in scalars { BN_free(scalar) }
        }
        run.compare(
            "CA key agreement \(parameters.name)", unit: "ops/s",
            emrtd: { _ in
                guard let pair = try? domain.generateKeyPair(random: .system),
                    let secret = try? domain.sharedSecret(pair, chipKey)
                else { return }
                sink &+= secret.count
            },
            reference: { index in
                sink &+= reference.multiply(nil, by: scalars[index % 16]) ? 1 : 0
                sink &+= reference.multiply(chipKeySSL, by: scalars[index % 16]) ? 1 : 0
            })
    }
    guard let group = StandardizedDomainParameters.modp2048Subgroup256.group, let q = group.subgroupOrder,
        let context = BN_CTX_new(), let montgomery = BN_MONT_CTX_new()
    else { throw BenchFailure("no 2048-bit group") }
    let domain = try KeyAgreementDomain(standardized: 2)
    let chipValue = try group.generatorPower(BigInt(0x1234_5678))
    let chipKey = try domain.publicKey(try group.encodePublicValue(chipValue))
    let p = openSSLNumber(group.p)
    let g = openSSLNumber(group.g)
    let y = openSSLNumber(chipValue)
    let result = BN_new()
    let exponents = try (0..<16).map { _ in openSSLNumber(try BigInt.random(below: q)) }
    BN_MONT_CTX_set(montgomery, p, context)
    defer {
        for item in exponents + [p, g, y, result] { BN_free(item) }
        BN_MONT_CTX_free(montgomery)
        BN_CTX_free(context)
    }
    run.compare(
        "CA key agreement MODP-2048-256", unit: "ops/s",
        emrtd: { _ in
            guard let pair = try? domain.generateKeyPair(random: .system),
                let secret = try? domain.sharedSecret(pair, chipKey)
            else { return }
            sink &+= secret.count
        },
        reference: { index in
            sink &+= Int(BN_mod_exp_mont_consttime(result, g, exponents[index % 16], p, context, montgomery))
            sink &+= Int(BN_mod_exp_mont_consttime(result, y, exponents[index % 16], p, context, montgomery))
        })
    if sink == 42 { print("") }
}

/// The vectors' real Active Authentication answer (gmrtd's capture of an NZ passport).
private enum RealAnswer {
    static let dataGroup15 =
        "6F8201023081FF300D06092A864886F70D01010105000381ED003081E90281E100BB8F93F4DC95E205CDA17C6927AB1E365B13065D03CD12E0FCE95D96840529453202F56CC4C13F77CD062930C8BC89A2873B257045C286E601CF3C09323A53103314902804AA10A314628CE222206A8866946A36B442041BB54AC81E6855DD1D6E16101833D65A191C20AC8B33B8A1A32920F46043F8031CF2BC17417030865FC5BE5A39DEE423BCBA3CA8177168EB23CFE01BA43EC87711B1CFFF85DB46F300DD8AE317B50D543B573E119E23AF7070D0B2FED6A3B2313A5EC02A531AAED1741F4390D1013E2A0F081EAC5DC8B0A1B2C6BDB1206F08D30E3643E1E5BDF536110203010001"
    static let signature =
        "474256306840C0AB1B63C10E1C26BDFEF4A0DD843920283CC4E6E70A60F2BD25DC7725F9677BC1CDE66379DC28B38E8490F33AFB2D10F9980C44C0BFC175D2B6684218F535C92FDD3E18DB770A9CCBF91DB3C7F0138E6D9E94B9BC8371761E3ABED5E5E9B260279CFB238B58AE0D6A01DA51C74C2A3ECD62C448BD9F20127F7384587287FA971204234E55B1A856C3E5AAAA620BB799A68FBAE08EE132BB61683EBA9B0B40DC1E54641CAD975B16991CAB50AF82E3F3985AFD19E7427A125F5B4B9878B12A5D2E01C7EEDCA3BB41C6FC05DCCD818BCE379D04B1F2F5D43487D3"
    static let challenge = "96302B0F3D7E7864"
}

private func benchRSAActiveAuthentication(_ run: BenchRun) throws {
    guard let dataGroup15 = Hex.decode(RealAnswer.dataGroup15), let signature = Hex.decode(RealAnswer.signature),
        let challenge = Hex.decode(RealAnswer.challenge)
    else { throw BenchFailure("bad hex") }
    let key = try ActiveAuthenticationPublicKey(dataGroup15).publicKey
    // DG15's key made ready once, as OpenSSL's EVP_PKEY below.
    let verifier = try ActiveAuthenticationVerifier(publicKey: key, info: nil)
    _ = try verifier.verify(signature: signature, challenge: challenge)
    let spki = key.encoded
    guard
        let evpKey = spki.withUnsafeBufferPointer({ buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_PUBKEY(nil, &cursor, buffer.count)
        }), let context = EVP_PKEY_CTX_new(evpKey, nil)
    else { throw BenchFailure("OpenSSL rejects the DG15 key") }
    defer {
        EVP_PKEY_CTX_free(context)
        EVP_PKEY_free(evpKey)
    }
    var recovered = [UInt8](repeating: 0, count: signature.count)
    var sink = 0
    run.compare(
        "AA RSA-1792 ISO 9796-2 SHA-256 (real answer)", unit: "ops/s",
        emrtd: { _ in
            let scheme = try? verifier.verify(signature: signature, challenge: challenge)
            sink &+= scheme == nil ? 0 : 1
        },
        reference: { _ in
            var length = recovered.count
            guard EVP_PKEY_verify_recover_init(context) == 1,
                EVP_PKEY_CTX_set_rsa_padding(context, RSA_NO_PADDING) == 1,
                EVP_PKEY_verify_recover(context, &recovered, &length, signature, signature.count) == 1
            else { return }
            // F = 6A ‖ M1 ‖ H(32) ‖ 34 CC: hash M1 ‖ challenge and compare with H.
            let digest = HashAlgorithm.sha256.hash(recovered[1..<(length - 34)] + challenge)
            sink &+= digest.elementsEqual(recovered[(length - 34)..<(length - 2)]) ? 1 : 0
        })
    if sink == 42 { print("") }
}

private func benchECDSAActiveAuthentication(_ run: BenchRun) throws {
    var sink = 0
    for parameters in [StandardizedDomainParameters.brainpoolP256r1, .secp256r1] {
        guard let curve = parameters.curve, let reference = OpenSSLCurve(parameterID: parameters.id),
            let oid = parameters.curveIdentifier
        else { throw BenchFailure("no curve \(parameters.name)") }
        let privateKey = BigInt(0x0BAD_C0DE)
        let point = try curve.encode(curve.publicKey(for: privateKey))
        let algorithm = DER.sequence([DER.objectIdentifier("1.2.840.10045.2.1"), DER.objectIdentifier(oid)])
        let key = try PublicKeyInfo(DER.sequence([algorithm, DER.bitString(point)]))
        let info = try SecurityOptions(
            DER.tlv(
                ASN1Tag(0x6E),
                DER.set([
                    DER.sequence([
                        DER.objectIdentifier(ASN1ObjectIdentifier.activeAuthentication), DER.integer(1),
                        DER.objectIdentifier("0.4.0.127.0.7.1.1.4.1.3"),
                    ])
                ])), kind: .dg14
        ).activeAuthenticationInfo
        let challenge: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        guard let (r, s) = reference.sign(digest: HashAlgorithm.sha256.hash(challenge), privateKey: privateKey),
            let pointSSL = reference.point(point), let keySSL = reference.verificationKey(pointSSL)
        else { throw BenchFailure("OpenSSL cannot sign on \(parameters.name)") }
        let signature = try ECDSASignature(r: r, s: s).rawRepresentation(length: curve.orderLength)
        let signatureSSL = reference.signature(r: r, s: s)
        defer {
            EC_POINT_free(pointSSL)
            copenssl_ec_key_free(keySSL)
            ECDSA_SIG_free(signatureSSL)
        }
        let verifier = try ActiveAuthenticationVerifier(publicKey: key, info: info)
        _ = try verifier.verify(signature: signature, challenge: challenge)
        run.compare(
            "AA ECDSA \(parameters.name) SHA-256", unit: "ops/s",
            emrtd: { _ in
                let scheme = try? verifier.verify(signature: signature, challenge: challenge)
                sink &+= scheme == nil ? 0 : 1
            },
            reference: { _ in
                let digest = HashAlgorithm.sha256.hash(challenge)
                sink &+= reference.verify(digest: digest, signature: signatureSSL, key: keySSL) ? 1 : 0
            })
    }
    if sink == 42 { print("") }
}

private func benchChipAuthenticationMapping(_ run: BenchRun) throws {
    guard
        let staticKey = Hex.decode(
            "041872709494399E7470A6431BE25E83EEE24FEA568C2ED28DB48E05DB3A610DC884D256A40E35EFCB59BF6753D3A489D28C7A4D973C2DA138A6E7A4A08F68E16F"
        ),
        let mappingKey = Hex.decode(
            "04A234236AA9B9621E8EFB73B5245C0E09D2576E5277183C1208BDD55280CAE8B304F365713A356E65A451E165ECC9AC0AC46E3771342C8FE5AEDD092685338E23"
        ), let proof = Hex.decode("85DC3FA93D0952BFA82F5FD189EE75BD82F11D1F0B8ED4BF5319AC9B53C426B3"),
        let reference = OpenSSLCurve(parameterID: 13),
        let oid = StandardizedDomainParameters.brainpoolP256r1.curveIdentifier
    else { throw BenchFailure("no App. I data") }
    let algorithm = DER.sequence([DER.objectIdentifier("1.2.840.10045.2.1"), DER.objectIdentifier(oid)])
    let key = try PublicKeyInfo(DER.sequence([algorithm, DER.bitString(staticKey)]))
    let scalar = BigInt(bytes: proof)
    var sink = 0
    run.compare(
        "PACE-CAM proof brainpoolP256r1 (App. I)", unit: "ops/s",
        emrtd: { _ in
            let verified = try? ChipAuthenticationMappingVerifier.verify(
                chipAuthenticationData: proof, chipMappingPublicKey: mappingKey, candidates: [key])
            sink &+= verified == nil ? 0 : 1
        },
        reference: { _ in
            // Decoding the static key and encoding the product, as the reader decodes both keys.
            sink &+= reference.multiply(staticKey, by: scalar) == mappingKey ? 1 : 0
        })
    if sink == 42 { print("") }
}
