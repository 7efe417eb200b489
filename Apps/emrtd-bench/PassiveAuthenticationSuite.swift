import ASN1
import CMS
import COpenSSL
import Foundation

/// `emrtd-bench pa`: Passive Authentication of each real document in
/// ../shared/data/gmrtd/sod_samples (EF.SOD signature, DSC against its CSCA, the data groups
/// beside it) and the load of the German master list (parse, signature and signer chain, trust
/// store), each beside OpenSSL doing the same work in the same run: `CMS_verify` of the
/// SignedData (no chain), `X509_verify` of the DSC with the CSCA's key and EVP digests of the
/// data groups; for the list, `CMS_verify`, `X509_verify` of the signer and `d2i_X509` of every
/// certificate. Rates in operations per second. Then the batch rows (`BatchVerificationRows`):
/// `emrtd verify --batch` against a process per document and against Python, over those
/// documents as dumps and simulated specimens. `--dir DIR` measures DIR's dumps instead (a dump
/// or a folder of dumps; each with its `CSCA.der` gets a row of its own, the first 20).
let passiveAuthenticationSuite = Suite(
    name: "pa", title: "pa: emrtd Passive Authentication vs OpenSSL CMS_verify, X509_verify, EVP_Digest",
    takesDirectory: true
) { run in
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("emrtd-bench-pa-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    if let directory = run.options.directory {
        let dumps = try dumpFolders(at: directory)
        for dump in dumps.prefix(20) {
            guard let document = Document(dump: dump) else {
                run.note("\(dump.lastPathComponent): no CSCA.der beside SOD.bin, so no row of its own")
                continue
            }
            benchDocument(document, run: run)
        }
        try BatchVerificationRows(dumps: dumps, time: nil).measure(run: run, scratch: scratch)
        return
    }
    let data = repositoryRoot().deletingLastPathComponent().appendingPathComponent("shared/data/gmrtd")
    for document in try documents(in: data.appendingPathComponent("sod_samples")) {
        benchDocument(document, run: run)
    }
    try benchMasterList(in: data.appendingPathComponent("master_list"), run: run)
    let dumps = try makeDumps(
        in: scratch.appendingPathComponent("dumps"), samples: data.appendingPathComponent("sod_samples"),
        specimens: 12, at: checkTime)
    try BatchVerificationRows(dumps: dumps, time: "2026-06-01").measure(run: run, scratch: scratch)
}

/// Inside every real DSC's validity; the bench's specimens are signed then.
private let checkTime = Date(timeIntervalSince1970: 1_780_272_000)  // 2026-06-01

private struct Document {
    let country: String
    let securityObject: [UInt8]
    let csca: [UInt8]
    let dataGroups: [Int: [UInt8]]
}

extension Document {
    /// A dump folder with its CSCA beside it (`CSCA.der`), named by the folder.
    init?(dump: URL) {
        func read(_ name: String) -> [UInt8]? {
            FileManager.default.contents(atPath: dump.appendingPathComponent(name).path).map { [UInt8]($0) }
        }
        guard let sod = read("SOD.bin"), let csca = read("CSCA.der") else { return nil }
        var groups: [Int: [UInt8]] = [:]
        for number in 1...16 { groups[number] = read("DG\(number).bin") }
        self.init(country: dump.lastPathComponent, securityObject: sod, csca: csca, dataGroups: groups)
    }
}

/// The real documents with their CSCA beside them. Malaysia is left out: OpenSSL cannot
/// match its SignerInfo (another RDN order), so it would time a failure.
private func documents(in folder: URL) throws -> [Document] {
    guard FileManager.default.fileExists(atPath: folder.path) else {
        throw BenchFailure("\(folder.path) is missing (../shared beside the repository)")
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

private func benchDocument(_ document: Document, run: BenchRun) {
    let store = (try? Certificate(derEncoded: document.csca)).map { TrustStore([$0]) } ?? TrustStore()
    let reference = OpenSSLDocumentCheck(document)
    // A dump of `--dir` may not verify on either side: said, not timed.
    let verdict = PassiveAuthentication.verify(
        securityObject: document.securityObject, dataGroups: document.dataGroups, trustStore: store, at: checkTime)
    guard verdict.sodSignatureValid, reference.run() else {
        run.note(
            "PA \(document.country): the EF.SOD signature does not verify (emrtd \(verdict.sodSignatureValid),"
                + " OpenSSL \(reference.run())), so no row")
        return
    }
    run.compare(
        "PA \(document.country)", unit: "documents/s",
        emrtd: { _ in
            let verdict = PassiveAuthentication.verify(
                securityObject: document.securityObject, dataGroups: document.dataGroups, trustStore: store,
                at: checkTime)
            precondition(verdict.sodSignatureValid, "\(document.country): \(verdict.errors)")
        },
        reference: { _ in precondition(reference.run(), "OpenSSL: \(document.country)") })
}

private func benchMasterList(in folder: URL, run: BenchRun) throws {
    guard
        let list = FileManager.default.contents(
            atPath: folder.appendingPathComponent("DE_ML_2026-05-28-08-28-45.ml").path),
        let root = FileManager.default.contents(atPath: folder.appendingPathComponent("DE_ROOT_CA_CSCA07.cer").path)
    else { throw BenchFailure("the German master list is missing from \(folder.path)") }
    let listBytes = [UInt8](list)
    let rootCertificate = try Certificate(derEncoded: [UInt8](root))
    let signingDay = Date(timeIntervalSince1970: 1_780_012_800)  // 2026-05-29
    let reference = try OpenSSLMasterListLoad(list: listBytes, root: [UInt8](root))
    run.compare(
        "master list DE (588)", unit: "loads/s",
        emrtd: { _ in
            var store = TrustStore()
            guard let masterList = try? MasterList(bytes: listBytes) else { preconditionFailure("master list") }
            precondition(store.add(masterList: masterList, roots: [rootCertificate], at: signingDay).isTrusted)
        },
        reference: { _ in precondition(reference.run() == 588, "OpenSSL master list") })
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
        guard let econtent = masterList.signedData.content else { throw BenchFailure("master list without content") }
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
