import ASN1
import CMS
import COpenSSL
import Foundation

/// `emrtd-bench pa [--json] [--seconds S]`: Passive Authentication of each real document in
/// ../shared/data/gmrtd/sod_samples (EF.SOD signature, DSC against its CSCA, the data groups
/// beside it) and the load of the German master list (parse, signature and signer chain, trust
/// store), each beside OpenSSL doing the same work in the same run: `CMS_verify` of the
/// SignedData (no chain), `X509_verify` of the DSC with the CSCA's key and EVP digests of the
/// data groups; for the list, `CMS_verify`, `X509_verify` of the signer and `d2i_X509` of every
/// certificate. Results are operations per second.
func passiveAuthenticationSuite(_ arguments: [String]) -> Int32 {
    var json = false
    var seconds = 0.3
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
        switch argument {
        case "--json": json = true
        case "--seconds":
            guard let value = iterator.next().flatMap(Double.init), value > 0 else { return benchUsage("--seconds S") }
            seconds = value
        default: return benchUsage("unknown argument \(argument)")
        }
    }
    let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/data/gmrtd")
    do {
        var results = try documents(in: data.appendingPathComponent("sod_samples")).map { document in
            benchDocument(document, seconds: seconds)
        }
        results.append(try benchMasterList(in: data.appendingPathComponent("master_list"), seconds: seconds))
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            FileHandle.standardOutput.write(try encoder.encode(results) + Data("\n".utf8))
        } else {
            print("operation                      emrtd/s    OpenSSL/s   ratio")
            for result in results {
                print(
                    result.operation.padding(toLength: 28, withPad: " ", startingAt: 0)
                        + String(format: "%11.0f  %11.0f  %6.2f", result.ours, result.openssl, result.ratio))
            }
        }
        return 0
    } catch {
        FileHandle.standardError.write(Data("emrtd-bench pa: \(error)\n".utf8))
        return 1
    }
}

private func benchUsage(_ message: String) -> Int32 {
    FileHandle.standardError.write(
        Data("emrtd-bench pa: \(message)\nusage: emrtd-bench pa [--json] [--seconds S]\n".utf8))
    return 2
}

private struct Document {
    let country: String
    let securityObject: [UInt8]
    let csca: [UInt8]
    let dataGroups: [Int: [UInt8]]
}

/// The real documents with their CSCA beside them. Malaysia is left out: OpenSSL cannot
/// match its SignerInfo (another RDN order), so it would time a failure.
private func documents(in folder: URL) throws -> [Document] {
    guard FileManager.default.fileExists(atPath: folder.path) else {
        throw BenchError("\(folder.path) is missing (../shared beside the repository)")
    }
    func read(_ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: folder.appendingPathComponent(name).path).map { [UInt8]($0) }
    }
    return ["AT", "AU", "CN", "DE", "FI", "FR", "NZ", "PH", "RU", "SG", "UK", "US"].compactMap { country in
        guard let sod = read("\(country)_EF_SOD.bin"), let csca = read("\(country)_CSCA.der") else { return nil }
        var groups: [Int: [UInt8]] = [:]
        for number in 1...16 { groups[number] = read("\(country)_DG\(number).bin") }
        return Document(country: country, securityObject: sod, csca: csca, dataGroups: groups)
    }
}

private func benchDocument(_ document: Document, seconds: Double) -> OperationResult {
    let store = (try? Certificate(derEncoded: document.csca)).map { TrustStore([$0]) } ?? TrustStore()
    let checkTime = Date(timeIntervalSince1970: 1_780_272_000)  // 2026-06-01, inside every DSC's validity
    let ours = measure(seconds: seconds) { _ in
        let verdict = PassiveAuthentication.verify(
            securityObject: document.securityObject, dataGroups: document.dataGroups, trustStore: store, at: checkTime)
        precondition(verdict.sodSignatureValid, "\(document.country): \(verdict.errors)")
    }
    let reference = OpenSSLDocumentCheck(document)
    let openssl = measure(seconds: seconds) { _ in precondition(reference.run(), "OpenSSL: \(document.country)") }
    return OperationResult(operation: "PA \(document.country)", ours: ours, openssl: openssl)
}

private func benchMasterList(in folder: URL, seconds: Double) throws -> OperationResult {
    guard
        let list = FileManager.default.contents(
            atPath: folder.appendingPathComponent("DE_ML_2026-05-28-08-28-45.ml").path),
        let root = FileManager.default.contents(atPath: folder.appendingPathComponent("DE_ROOT_CA_CSCA07.cer").path)
    else { throw BenchError("the German master list is missing from \(folder.path)") }
    let listBytes = [UInt8](list)
    let rootCertificate = try Certificate(derEncoded: [UInt8](root))
    let signingDay = Date(timeIntervalSince1970: 1_780_012_800)  // 2026-05-29
    let ours = measure(seconds: seconds) { _ in
        var store = TrustStore()
        guard let masterList = try? MasterList(bytes: listBytes) else { preconditionFailure("master list") }
        precondition(store.add(masterList: masterList, roots: [rootCertificate], at: signingDay).isTrusted)
    }
    let reference = try OpenSSLMasterListLoad(list: listBytes, root: [UInt8](root))
    let openssl = measure(seconds: seconds) { _ in precondition(reference.run() == 588, "OpenSSL master list") }
    return OperationResult(operation: "master list DE (588)", ours: ours, openssl: openssl)
}

/// OpenSSL's side of one document: the SignedData's signature, the DSC's signature by the
/// CSCA, the data-group digests.
private struct OpenSSLDocumentCheck {
    let contentInfo: [UInt8]
    let csca: [UInt8]
    let dataGroups: [[UInt8]]
    let digest: OpaquePointer?

    init(_ document: Document) {
        contentInfo =
            (try? ASN1Node.parse(document.securityObject).child(at: 0, "ContentInfo")).map { Array($0.encodedBytes) }
            ?? []
        csca = document.csca
        dataGroups = document.dataGroups.keys.sorted().compactMap { document.dataGroups[$0] }
        let hash = (try? DocumentSecurityObject(bytes: document.securityObject))?.hashAlgorithm.rawValue ?? "sha256"
        digest = EVP_get_digestbyname(hash)
    }

    func run() -> Bool {
        contentInfo.withUnsafeBufferPointer { bytes in
            var cursor = bytes.baseAddress
            guard let cms = d2i_CMS_ContentInfo(nil, &cursor, bytes.count) else { return false }
            defer { CMS_ContentInfo_free(cms) }
            guard CMS_verify(cms, nil, nil, nil, nil, UInt32(CMS_NO_SIGNER_CERT_VERIFY | CMS_BINARY)) == 1,
                let signers = CMS_get0_signers(cms), let dsc = OPENSSL_sk_value(signers, 0)
            else { return false }
            defer { OPENSSL_sk_free(signers) }
            let ok = csca.withUnsafeBufferPointer { cscaBytes -> Bool in
                var cscaCursor = cscaBytes.baseAddress
                guard let issuer = d2i_X509(nil, &cscaCursor, cscaBytes.count) else { return false }
                defer { X509_free(issuer) }
                return X509_verify(OpaquePointer(dsc), X509_get0_pubkey(issuer)) == 1
            }
            var output = [UInt8](repeating: 0, count: 64)
            for group in dataGroups {
                _ = group.withUnsafeBytes { EVP_Digest($0.baseAddress, $0.count, &output, nil, digest, nil) }
            }
            return ok
        }
    }
}

/// OpenSSL's side of a master-list load: the list's signature, the signer's signature by the
/// root, and every certificate decoded.
private struct OpenSSLMasterListLoad {
    let list: [UInt8]
    let root: [UInt8]
    /// Where the certList's certificates lie in the eContent (found once, outside the timing).
    let certificates: Range<Int>
    let content: [UInt8]

    init(list: [UInt8], root: [UInt8]) throws {
        self.list = list
        self.root = root
        let masterList = try MasterList(bytes: list)
        guard let econtent = masterList.signedData.content else { throw BenchError("master list without content") }
        content = econtent
        let set = try ASN1Node.parse(econtent).child(at: 1, "certList")
        certificates = set.content.startIndex..<set.content.endIndex
    }

    /// The number of certificates decoded, or -1 when a check fails.
    func run() -> Int {
        list.withUnsafeBufferPointer { bytes in
            var cursor = bytes.baseAddress
            guard let cms = d2i_CMS_ContentInfo(nil, &cursor, bytes.count) else { return -1 }
            defer { CMS_ContentInfo_free(cms) }
            guard CMS_verify(cms, nil, nil, nil, nil, UInt32(CMS_NO_SIGNER_CERT_VERIFY | CMS_BINARY)) == 1,
                let signers = CMS_get0_signers(cms), let signer = OPENSSL_sk_value(signers, 0)
            else { return -1 }
            defer { OPENSSL_sk_free(signers) }
            let rooted = root.withUnsafeBufferPointer { rootBytes -> Bool in
                var rootCursor = rootBytes.baseAddress
                guard let issuer = d2i_X509(nil, &rootCursor, rootBytes.count) else { return false }
                defer { X509_free(issuer) }
                return X509_verify(OpaquePointer(signer), X509_get0_pubkey(issuer)) == 1
            }
            guard rooted else { return -1 }
            return content.withUnsafeBufferPointer { contentBytes in
                guard let base = contentBytes.baseAddress else { return -1 }
                var cursor: UnsafePointer<UInt8>? = base + certificates.lowerBound
                let end = base + certificates.upperBound
                var count = 0
                while let position = cursor, position < end {
                    guard let certificate = d2i_X509(nil, &cursor, end - position) else { return -1 }
                    X509_free(certificate)
                    count += 1
                }
                return count
            }
        }
    }
}
