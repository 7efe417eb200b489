import ASN1
import CVCertificates
import Foundation
import Secrets
import TestSupport
import Testing

/// The BSI EAC worked example's certificates (vsmartcard's npa-example-data, byte-identical to
/// OpenPACE's eactest.c) and OpenPACE's `cvc-create` / `cvc-print` as the reference.
@Suite struct WorkedExampleAndOpenPACETests {
    static let directory = "data/vsmartcard_npa-example-data"

    /// The example's chain (CVCA → DV → authentication terminal), each certificate re-encoded byte
    /// for byte, and its Terminal Authentication signature (TA v2 after PACE: ID_PICC is the x of
    /// the chip's ephemeral PACE key, then r_PICC, then the x of the terminal's ephemeral CA key;
    /// for DH both compressed by SHA-1). ECDH: ECDSA-SHA-512 on explicit brainpoolP512r1; DH: RSA.
    @Test(arguments: [
        (
            "ecdh", "DECVCAAT00001", 2010,
            "282CF38073036AFAC216AF135BD994DA0C357F10BD4C34AFEA1042B2EB0FD680",
            "547E4EAB03B235D2",
            "5A7A377FC9CAFC03AC7FF45441A8B2909D88EAB8E6B0173847AB49B949DF3799",
            "81A2D9E5891B86A0F01ADD0341C89D6E9EF3E20C223884F27B2F2040E9721C46C9C3CF7C0EE0A422263BA6F1EAFC693BD8738F34760B5998584F58DD25B8D60D99D7C45957C2E2F10C0E5F91A8DC88BD7CFA33CBF784A9DA83C800324165179DBE71C69B2C0FD811270E436C43278184DDB542142342DBF156E82D2A1BC19085"
        ),
        (
            "dh", "DETESTCVCA00003", 2010, "F4874C8A068E57E7320B4BB7136859CBE3AC42C9", "FC210C174A801D46",
            "7DF391B178B9F8F32BE6C65A3DBD92F1992B9A91",
            "37C7360C55579DE28A41DF8A1D17032C4B9F90DF7F646DF33F77EF976AE4C45CDBA3776399648C755043790F0F19BFC146D053B77036CA9B24BFB4B7934FAC042671E23BE6E3CA2B246CE2066C1F0550383418192F06D6AD6C0ACB1E70BDEAD60EA10B31E074F49E5E8AEB54E6F4F83CE998957953F97F870058013D0E745D0A"
        ),
    ])
    func workedExampleChainAndSignature(
        variant: String, cvcaReference: String, year: Int, idPICC: String, challenge: String, terminalKeyX: String,
        signature: String
    ) throws {
        guard let cvcaBytes = Prerequisites.sharedBytes("\(Self.directory)/\(variant)/cvca.cvcert"),
            let dvBytes = Prerequisites.sharedBytes("\(Self.directory)/\(variant)/dvca.cvcert"),
            let atBytes = Prerequisites.sharedBytes("\(Self.directory)/\(variant)/at.cvcert")
        else { return }
        let cvca = try CVCertificate(encoded: cvcaBytes)
        let dv = try CVCertificate(encoded: dvBytes)
        let terminal = try CVCertificate(encoded: atBytes)
        #expect(cvca.encoded == cvcaBytes && dv.encoded == dvBytes && terminal.encoded == atBytes)
        #expect(cvca.holderReference == cvcaReference && cvca.isSelfSigned)
        #expect(terminal.holderReference == "DETESTATDE019" && terminal.authorityReference == "DETESTDVDE019")
        #expect(terminal.authorization.terminalType == .authenticationTerminal)
        if variant == "ecdh" { #expect(cvca.publicKey.curveParameters?.standardized?.id == 17) }
        let chain = try CVCChain(
            trustPoint: cvca, certificates: [dv, terminal],
            at: variant == "ecdh" ? CVCDate(year: year, month: 10, day: 1) : CVCDate(year: year, month: 4, day: 1))
        let data = try #require(Hex.decode(idPICC + challenge + terminalKeyX))
        #expect(try chain.terminalKey.isValidSignature(try #require(Hex.decode(signature)), of: data, holder: "AT"))
    }

    /// A chain made by OpenPACE's cvc-create (brainpoolP256r1 keys from OpenSSL) parsed and
    /// verified here; ours printed and verified by cvc-print.
    @Test func openPACEInteroperability() throws {
        guard let cvcCreate = Prerequisites.tool("cvc-create", package: "openpace"),
            let cvcPrint = Prerequisites.tool("cvc-print", package: "openpace"),
            let openssl = Prerequisites.tool("openssl", package: "openssl")
        else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cvc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        func run(_ executable: String, _ arguments: [String]) throws {
            let result = try Subprocess.run(executable, arguments)
            #expect(result.status == 0, "\(executable) \(arguments): \(result.combinedOutput)")
        }
        try run(
            openssl,
            ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:brainpoolP256r1", "-out", path("cvca.pem")])
        try run(
            openssl,
            ["pkcs8", "-topk8", "-nocrypt", "-in", path("cvca.pem"), "-outform", "DER", "-out", path("cvca.pkcs8")])
        try run(
            cvcCreate,
            [
                "--role=cvca", "--type=is", "--chat=C3", "--issued=260101", "--expires=271231", "--chr=UTCVCA00001",
                "--sign-with=\(path("cvca.pkcs8"))", "--scheme=ECDSA_SHA_256", "--out-cert=\(path("cvca.cvcert"))",
            ])
        try run(
            cvcCreate,
            [
                "--role=dv_domestic", "--type=is", "--chat=83", "--issued=260101", "--expires=271231",
                "--chr=UTDV000001", "--sign-with=\(path("cvca.pkcs8"))", "--sign-as=\(path("cvca.cvcert"))",
                "--scheme=ECDSA_SHA_256", "--out-cert=\(path("dv.cvcert"))", "--out-key=\(path("dv.pkcs8"))",
            ])
        try run(
            cvcCreate,
            [
                "--role=terminal", "--type=is", "--chat=01", "--issued=260101", "--expires=271231",
                "--chr=UTIS000001", "--sign-with=\(path("dv.pkcs8"))", "--sign-as=\(path("dv.cvcert"))",
                "--scheme=ECDSA_SHA_256", "--out-cert=\(path("is.cvcert"))", "--out-key=\(path("is.pkcs8"))",
            ])
        func load(_ name: String) throws -> [UInt8] {
            [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
        }
        let cvca = try CVCertificate(encoded: load("cvca.cvcert"))
        let chain = try CVCChain(
            trustPoint: cvca,
            certificates: [
                try CVCertificate(encoded: load("dv.cvcert")), try CVCertificate(encoded: load("is.cvcert")),
            ],
            at: CVCDate(year: 2026, month: 12, day: 2))
        #expect(chain.effectiveAuthorization.inspectionRights == [.readDG3])
        // The terminal's key as cvc-create wrote it signs what the chain's terminal key verifies.
        let terminalKey = try CVCPrivateKey(pkcs8: SecretBytes(try load("is.pkcs8")))
        let message = Array("r_PICC".utf8)
        #expect(
            try chain.terminalKey.isValidSignature(
                try terminalKey.sign(message, algorithm: .ecdsa(.sha256)), of: message, holder: "IS"))

        // Ours, signed by cvc-create's DV key, printed and verified by cvc-print against its CVCA.
        let dvKey = try CVCPrivateKey(pkcs8: SecretBytes(try load("dv.pkcs8")))
        let ours = try CVCertificate.issue(
            authorityReference: "UTDV000001",
            publicKey: terminalKey.publicKey(algorithm: .ecdsa(.sha256), includingCurve: false),
            holderReference: "UTIS000002",
            authorization: .init(inspectionSystem: .terminal, rights: [.readDG3, .readDG4]),
            effectiveDate: CVCDate(year: 2026, month: 1, day: 1)!,
            expirationDate: CVCDate(year: 2026, month: 12, day: 31)!,
            signer: dvKey, signingAlgorithm: .ecdsa(.sha256))
        try Data(ours.encoded).write(to: directory.appendingPathComponent("ours.cvcert"))
        let trusted = directory.appendingPathComponent("trusted")
        try FileManager.default.createDirectory(at: trusted, withIntermediateDirectories: true)
        try Data(cvca.encoded).write(to: trusted.appendingPathComponent("UTCVCA00001"))
        try Data(chain.certificates[0].encoded).write(to: trusted.appendingPathComponent("UTDV000001"))
        let printed = try Subprocess.run(cvcPrint, ["--cvc=\(path("ours.cvcert"))", "--cvc-dir=\(trusted.path)"])
        #expect(printed.output.contains("CHR: UTIS000002"), "\(printed.combinedOutput)")
        #expect(printed.output.contains("Read fingerprint\n      Read iris"), "\(printed.combinedOutput)")
        #expect(printed.output.contains("certificate verified"), "\(printed.combinedOutput)")

        // Our request, read by cvc-print.
        let request = try CVCRequest.make(
            authorityReference: "UTDV000001", key: terminalKey, algorithm: .ecdsa(.sha256),
            holderReference: "UTIS000003")
        try Data(request.encoded).write(to: directory.appendingPathComponent("request.cvreq"))
        let printedRequest = try Subprocess.run(cvcPrint, ["--csr=\(path("request.cvreq"))"])
        #expect(printedRequest.output.contains("CHR: UTIS000003"), "\(printedRequest.combinedOutput)")
    }
}
