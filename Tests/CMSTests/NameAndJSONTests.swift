import ASN1
import Foundation
import JSON
import Testing

@testable import CMS

@Suite struct NameAndJSONTests {
    func name(_ rdns: [[(String, [UInt8])]]) throws -> DistinguishedName {
        let encoded = DER.sequence(
            rdns.map { rdn in
                DER.set(
                    rdn.map { DER.sequence([DER.objectIdentifier(ASN1ObjectIdentifier(stringLiteral: $0.0)), $0.1]) })
            })
        return try DistinguishedName(ASN1Node.parse(encoded))
    }

    /// String type, case, spacing and RDN order do not make another name; a value does.
    @Test func normalisedComparison() throws {
        let reference = try name([
            [("2.5.4.6", DER.printableString("DE"))], [("2.5.4.10", DER.utf8String("Bundes Druckerei"))],
            [("2.5.4.3", DER.printableString("CSCA"))],
        ])
        let rewritten = try name([
            [("2.5.4.3", DER.utf8String("csca"))], [("2.5.4.10", DER.printableString("  BUNDES   druckerei "))],
            [("2.5.4.6", DER.utf8String("de"))],
        ])
        let other = try name([
            [("2.5.4.6", DER.printableString("DE"))], [("2.5.4.10", DER.utf8String("Bundes Druckerei"))],
            [("2.5.4.3", DER.printableString("CSCA 2"))],
        ])
        #expect(reference == rewritten)
        #expect(reference.hashValue == rewritten.hashValue)
        #expect(reference != other)
        #expect(reference.rfc4514 == "CN=CSCA,O=Bundes Druckerei,C=DE")
        #expect(rewritten.country == "DE")
    }

    /// RFC 4514 §2.4 escaping, attribute names (`serialNumber`), and the `#`-hex form for types
    /// without a name.
    @Test func rfc4514() throws {
        let escaped = try name([
            [("2.5.4.3", DER.utf8String(" a,b+c\"d\\e<f>g;h "))],
            [("2.5.4.5", DER.printableString("42")), ("2.5.4.11", DER.utf8String("#x"))],
            [("2.5.4.72", DER.printableString("42"))],
        ])
        #expect(
            escaped.rfc4514
                == "2.5.4.72=#13023432,serialNumber=42+OU=\\#x,CN=\\ a\\,b\\+c\\\"d\\\\e\\<f\\>g\\;h\\ ")
    }

    /// The verdict's JSON: every key present, nulls kept, bytes as padded base64, enums by name.
    @Test func verdictJSON() throws {
        let folder = TestFiles.fixtures.appendingPathComponent("pa-faults/rsa/valid")
        let verdict = PassiveAuthentication.verify(
            securityObject: try TestFiles.bytes(folder.appendingPathComponent("SOD.bin")),
            dataGroups: [1: try TestFiles.bytes(folder.appendingPathComponent("DG1.bin"))], trustStore: TrustStore(),
            at: TestFiles.date("2026-06-01"))
        let text = verdict.json.serialized()
        let object = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "status", "protocol", "sodSignatureValid", "certificateChainValid", "dataGroupHashesValid",
                "dataGroupHashes", "hashAlgorithm", "signatureAlgorithm", "documentSignerCertificate",
                "countrySigningCertificate", "issuingCountry", "errors", "dataGroupsChecked",
            ])
        // DG2 was not read: not authenticated, whatever the trust store.
        #expect(object["status"] as? String == "denied")
        #expect(object["dataGroupsChecked"] as? Int == 1)
        #expect(object["countrySigningCertificate"] is NSNull)
        let hashes = try #require(object["dataGroupHashes"] as? [[String: Any]])
        #expect(hashes.map { $0["status"] as? String } == ["valid", "notRead", "notRead"])
        #expect(hashes[1]["computedHash"] is NSNull)
        let dsc = try #require(object["documentSignerCertificate"] as? [String: Any])
        let der = try #require(dsc["der"] as? String)
        #expect(der.count % 4 == 0)
        #expect(Data(base64Encoded: der) == verdict.documentSignerCertificate?.der)
        #expect(dsc["notBefore"] as? String == "2024-01-01T00:00:00Z")
        #expect(JSONValue.string("a\"\\\u{1}").serialized() == "\"a\\\"\\\\\\u0001\"")
    }
}
