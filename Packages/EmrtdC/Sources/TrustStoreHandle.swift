import CEmrtdABI
import CMS
import Emrtd

/// `emrtd_trust_store`: the trusted CSCAs, assembled once and shared by threads (immutable).
/// A read's `EmrtdReader` assembles its own from the same entries (it takes a configuration,
/// not a store), so the handle keeps them too.
final class TrustStoreHandle: Sendable {
    /// The largest certificate entry: a PEM bundle of every CSCA there is stays far below.
    static let entryLimit = 64 << 20

    let useBuiltIn: Bool
    let entries: [[UInt8]]
    let store: TrustStore
    /// What is amiss with the store (no CSCA at all, the built-in bundle unavailable), told in
    /// every verdict's warnings as `emrtd verify` tells it.
    let warning: String?

    init(useBuiltIn: Bool, entries: [[UInt8]]) throws(ReadError) {
        do throws(CMSError) {
            let assembled = try TrustStore.assemble(includingDefaultBundle: useBuiltIn, authorityCertificates: entries)
            store = assembled.store
            warning = assembled.store.assemblyWarning(defaultBundleProblem: assembled.defaultBundleProblem)
        } catch {
            throw ReadError(.invalidArgument, error.reason)
        }
        self.useBuiltIn = useBuiltIn
        self.entries = entries
    }

    /// The handle behind a caller's pointer (not retained: the caller keeps it alive for the call).
    static func borrow(_ pointer: OpaquePointer?) -> TrustStoreHandle? {
        pointer.map { Unmanaged<TrustStoreHandle>.fromOpaque(UnsafeRawPointer($0)).takeUnretainedValue() }
    }
}

/// `emrtd_trust_store_create`.
@_cdecl("emrtd_trust_store_create")
public func emrtdTrustStoreCreate(
    _ useBuiltIn: Int32, _ certificates: UnsafePointer<emrtd_buffer>?, _ count: Int,
    _ store: UnsafeMutablePointer<OpaquePointer?>?, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ errorLength: UnsafeMutablePointer<Int>?
) -> Int32 {
    guard let store else {
        return ABIResult.run(error, errorLength) { () throws(ReadError) in
            throw ReadError(.invalidArgument, "the trust store's out pointer is NULL")
        }
    }
    store.pointee = nil
    guard let error, let errorLength else { return Int32(EMRTD_INVALID_ARGUMENT) }
    do throws(ReadError) {
        guard count >= 0, count <= 1 << 16 else {
            throw ReadError(.invalidArgument, "\(count) certificate entries; at most 65536 are accepted")
        }
        guard count == 0 || certificates != nil else {
            throw ReadError(.invalidArgument, "the certificate entries are NULL with a count of \(count)")
        }
        var entries: [[UInt8]] = []
        for index in 0..<count {
            guard let entry = certificates?[index] else { break }
            entries.append(
                try callerBytes(
                    entry.data, entry.length, limit: TrustStoreHandle.entryLimit,
                    what: "authority certificate entry \(index + 1)"))
        }
        let handle = try TrustStoreHandle(useBuiltIn: useBuiltIn != 0, entries: entries)
        store.pointee = OpaquePointer(Unmanaged.passRetained(handle).toOpaque())
        return Int32(EMRTD_OK)
    } catch let failure {
        return ABIResult.deliver(failure, to: error, length: errorLength)
    }
}

/// `emrtd_trust_store_free`.
@_cdecl("emrtd_trust_store_free")
public func emrtdTrustStoreFree(_ store: OpaquePointer?) {
    guard let store else { return }
    Unmanaged<TrustStoreHandle>.fromOpaque(UnsafeRawPointer(store)).release()
}
