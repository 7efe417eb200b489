import CMS
import Foundation
import Seals
import Testing

func certificate(_ base64: String) throws -> Certificate {
    try Certificate(derEncoded: Array(Data(base64Encoded: base64.filter { !$0.isWhitespace }) ?? Data()))
}

func seal(_ hexOrJSON: String) throws -> Seal {
    if hexOrJSON.hasPrefix("{") { return try Seal(barcode: Array(hexOrJSON.utf8)) }
    return try Seal(barcode: sealBytes(hexOrJSON))
}

/// A moment past every vector's signature date: VDS certificates are checked at the signature date
/// whatever this is; VDS-NC at this.
let checkTime = Date(timeIntervalSince1970: 1_780_000_000)  // 2026-05-28

/// Signatures over exactly the bytes 9303-13 and the VDS-NC report name, with the signer found by
/// the header's reference (VDS) or carried (VDS-NC), and the chain to a trusted CSCA.
struct SealVerificationTests {
    /// UTTS5B is signed by an unpublished CA of the same name, not by itself.
    @Test func residencePermitWithoutItsCSCA() throws {
        let store = TrustStore([try certificate(SealVectors.certificateUTTS5B)])
        let verdict = try seal(SealVectors.vdsResidencePermitUTTS5B).verify(trustStore: store, at: checkTime)
        #expect(verdict.status == .authorityCertificatesNotProvided, "\(verdict.errors)")
        #expect(verdict.signatureValid)
        #expect(verdict.signatureAlgorithm == "SHA256withECDSA")
        #expect(verdict.checkTime == Date(timeIntervalSince1970: 1_690_329_600))  // 2023-07-26
    }

    /// The made seals: signer found by the header (v3 and v4) or carried, chained to the CSCA.
    @Test(arguments: [SealVectors.madeVisa, SealVectors.madeResidencePermit, SealVectors.madeVDSNC])
    func madeSealsAuthenticated(_ vector: String) throws {
        let store = TrustStore([try certificate(SealVectors.madeCSCA), try certificate(SealVectors.madeSigner)])
        let verdict = try seal(vector).verify(trustStore: store, at: checkTime)
        #expect(verdict.status == .authenticated, "\(verdict.errors)")
        #expect(verdict.countrySigningCertificate?.subject.commonName == "UT Seal CSCA")
        let alone = try seal(vector).verify(
            trustStore: TrustStore([try certificate(SealVectors.madeCSCA)]), at: checkTime)
        if vector == SealVectors.madeVDSNC {
            #expect(alone.status == .authenticated)
        } else {
            #expect(alone.status == .authorityCertificatesNotProvided)
            #expect(alone.errors.map(\.code) == ["signerCertificateNotFound"])
        }
    }

    /// Checked before the signer's validity (a VDS-NC at the time asked for): denied, with the dates.
    @Test func expiredOrNotYetValid() throws {
        let store = TrustStore([try certificate(SealVectors.madeCSCA)])
        let verdict = try seal(SealVectors.madeVDSNC).verify(trustStore: store, at: Date(timeIntervalSince1970: 0))
        #expect(verdict.status == .denied)
        #expect(verdict.signatureValid)
        #expect(verdict.errors.contains { $0.code == "notValidAtCheckTime" })
    }

    /// brainpoolP224r1 with SHA-224; DETS32's CSCA was never published. The sample's header says
    /// UTO, its signer is of DE: the signature verifies, the seal is denied for the country.
    @Test func visaSignatureValidWithoutCSCA() throws {
        let store = TrustStore([try certificate(SealVectors.certificateDETS32)])
        let verdict = try seal(SealVectors.vdsVisaDETS32Bp224).verify(trustStore: store, at: checkTime)
        #expect(verdict.status == .denied, "\(verdict.errors)")
        #expect(verdict.errors.contains(.issuingCountryMismatch(issuingCountry: "UTO", signer: "DE")))
        #expect(verdict.signatureValid)
        #expect(verdict.signatureAlgorithm == "SHA224withECDSA")
    }

    @Test(arguments: [
        (SealVectors.vdsArrivalAttestationDETS27, SealVectors.certificateDETS27),
        (SealVectors.vdsSocialInsuranceDETS27, SealVectors.certificateDETS27),
        (SealVectors.vdsAddressStickerIdDETS32, SealVectors.certificateDETS32),
        (SealVectors.vdsEmergencyTravelDocumentUTTS5B, SealVectors.certificateUTTS5B),
        (SealVectors.vdsFictionCertUTTS5B, SealVectors.certificateUTTS5B),
    ])
    func signaturesValid(_ vector: String, _ signer: String) throws {
        let verdict = try seal(vector).verify(trustStore: TrustStore([try certificate(signer)]), at: checkTime)
        #expect(verdict.signatureValid, "\(verdict.errors)")
    }

    @Test(arguments: [
        (SealVectors.vdsNegResidencePermitTamperedMessage, SealVectors.certificateUTTS5B),
        (SealVectors.vdsNegVisaBp224TamperedSignature, SealVectors.certificateDETS32),
    ])
    func tamperedSealsDenied(_ vector: String, _ signer: String) throws {
        let verdict = try seal(vector).verify(trustStore: TrustStore([try certificate(signer)]), at: checkTime)
        #expect(verdict.status == .denied)
        #expect(!verdict.signatureValid)
        #expect(verdict.errors.contains { $0.code == "signatureInvalid" })
    }

    /// Another certificate in the store is not taken for the signer the header names.
    @Test func signerFoundByReferenceOnly() throws {
        let store = TrustStore([try certificate(SealVectors.certificateDETS27)])
        let verdict = try seal(SealVectors.vdsResidencePermitUTTS5B).verify(trustStore: store, at: checkTime)
        #expect(verdict.status == .authorityCertificatesNotProvided)
        #expect(verdict.errors.map(\.code) == ["signerCertificateNotFound"])
    }

    /// One bit flipped anywhere in the seal: never authenticated.
    @Test func everyBitFlipDenied() throws {
        let store = TrustStore([try certificate(SealVectors.madeCSCA), try certificate(SealVectors.madeSigner)])
        let bytes = sealBytes(SealVectors.madeResidencePermit)
        #expect(try Seal(barcode: bytes).verify(trustStore: store, at: checkTime).status == .authenticated)
        for index in bytes.indices {
            var flipped = bytes
            flipped[index] ^= 0x01
            guard let changed = try? Seal(barcode: flipped) else { continue }
            #expect(changed.verify(trustStore: store, at: checkTime).status != .authenticated)
        }
    }

    @Test func australianVDSNCAuthenticated() throws {
        let store = TrustStore([try certificate(SealVectors.certificateAUCSCA16F2)])
        let parsed = try seal(SealVectors.vdsncAusPovJaneCatherineValid)
        guard case .nonConstrained(let nc) = parsed else {
            Issue.record("not a VDS-NC")
            return
        }
        #expect(nc.type == "icao.vacc")
        #expect(nc.issuingCountry == "AUS")
        #expect(nc.message("pid.n") == "CITIZEN  JANE CATHERINE")
        #expect(parsed.documentNumber == "PF0911009")
        let verdict = parsed.verify(trustStore: store, at: checkTime)
        #expect(verdict.status == .authenticated, "\(verdict.errors)")
        #expect(verdict.countrySigningCertificate?.subject.country == "AU")
        #expect(parsed.verify(trustStore: TrustStore(), at: checkTime).status == .authorityCertificatesNotProvided)
    }

    @Test func tamperedVDSNCDenied() throws {
        let store = TrustStore([try certificate(SealVectors.certificateAUCSCA16F2)])
        let verdict = try seal(SealVectors.vdsncAusPovJaneCatherineTampered).verify(trustStore: store, at: checkTime)
        #expect(verdict.status == .denied)
        #expect(!verdict.signatureValid)
        #expect(verdict.certificateChainValid)
    }

    /// The ICAO example and the Friesland sample need canonicalization (their keys are not
    /// sorted); the old Friesland signature covers a non-canonical text and is refused. The
    /// Friesland sample says UTO but its signer is of FR: its signature verifies, the seal is denied.
    @Test func canonicalForm() throws {
        for vector in [SealVectors.vdsncIcaoSpecExampleUtoValid, SealVectors.vdsncFrieslandSampleValid] {
            let verdict = try seal(vector).verify(trustStore: TrustStore(), at: checkTime)
            #expect(verdict.signatureValid, "\(verdict.errors)")
            if vector == SealVectors.vdsncFrieslandSampleValid {
                #expect(verdict.status == .denied)
                #expect(verdict.errors.contains(.issuingCountryMismatch(issuingCountry: "UTO", signer: "FR")))
            } else {
                #expect(verdict.status == .authorityCertificatesNotProvided)
            }
        }
        let old = try seal(SealVectors.vdsncNegFrieslandNoncanonicalDer).verify(trustStore: TrustStore(), at: checkTime)
        #expect(!old.signatureValid)
        #expect(old.status == .denied)
    }

    @Test func verdictJSONKeys() throws {
        let store = TrustStore([try certificate(SealVectors.madeCSCA), try certificate(SealVectors.madeSigner)])
        let verdict = try seal(SealVectors.madeVisa).verify(trustStore: store, at: checkTime)
        let json = verdict.json
        #expect(json["status"] == "authenticated")
        #expect(json["signatureValid"] == .bool(true))
        #expect(json["certificateChainValid"] == .bool(true))
        #expect(json["checkTime"] == "2026-03-02T00:00:00Z")
        #expect(json["signerCertificate"]?["serialNumber"] == "5C")
        #expect(json["countrySigningCertificate"]?["commonName"] == "UT Seal CSCA")
        #expect(json["errors"] == .array([]))
    }
}
