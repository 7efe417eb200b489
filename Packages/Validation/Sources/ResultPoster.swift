import Dispatch
import Foundation
import FoundationNetworking
import Synchronization

/// POSTs a result to a tenant's result server (FoundationNetworking, over the toolchain's
/// libcurl) and says whether the server confirmed it with a 2xx. One attempt: the outbox's
/// deliverer retries, and every attempt carries `Idempotency-Key: <validationId>`, by which the
/// result server drops the copies at-least-once delivery may bring. A redirect is not followed
/// (the body and the key would go to another place, or be dropped by a GET): it is a failed
/// attempt, retried like any other.
struct ResultPoster: Sendable {
    let timeout: Duration

    /// Nil when confirmed, else why not.
    func post(_ entry: OutboxEntry) -> String? {
        var request = URLRequest(url: entry.resultURL)
        request.httpMethod = "POST"
        request.timeoutInterval = Double(timeout.components.seconds) + 1
        for (name, value) in entry.headers { request.setValue(value, forHTTPHeaderField: name) }
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(entry.validationId, forHTTPHeaderField: "Idempotency-Key")
        request.httpBody = Data(entry.body.utf8)
        let outcome = Mutex<String??>(nil)
        let done = DispatchSemaphore(value: 0)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = Double(timeout.components.seconds)
        let session = URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
        let task = session.dataTask(with: request) { _, response, error in
            let verdict: String?
            if let error {
                verdict = "the result server could not be reached: \(Self.words(for: error))"
            } else if let status = (response as? HTTPURLResponse)?.statusCode, (200..<300).contains(status) {
                verdict = nil
            } else if let status = (response as? HTTPURLResponse)?.statusCode, (300..<400).contains(status) {
                verdict = "the result server answered \(status), a redirect: not followed, not delivered"
            } else {
                let status = (response as? HTTPURLResponse)?.statusCode
                verdict = "the result server answered \(status.map(String.init) ?? "no HTTP status")"
            }
            outcome.withLock { $0 = .some(verdict) }
            done.signal()
        }
        task.resume()
        let (seconds, _) = timeout.components
        let answered = done.wait(timeout: .now() + .seconds(Int(seconds) + 2)) == .success
        session.finishTasksAndInvalidate()
        guard answered, let verdict = outcome.withLock({ $0 }) else {
            task.cancel()
            return "the result server did not answer in \(seconds) s"
        }
        return verdict
    }

    /// A transport failure in a user's words, never Foundation's `NSURLErrorDomain error -1001`.
    static func words(for error: any Error) -> String {
        guard let code = (error as? URLError)?.code else { return "the connection failed" }
        switch code {
        case .timedOut: return "no answer in time"
        case .cannotConnectToHost: return "the connection was refused"
        case .cannotFindHost, .dnsLookupFailed: return "the host name is unknown"
        case .networkConnectionLost: return "the connection was lost"
        case .notConnectedToInternet: return "no network"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return "the TLS connection failed"
        case .unsupportedURL: return "the address is not an http or https URL"
        case .httpTooManyRedirects, .redirectToNonExistentLocation: return "a redirect, not followed"
        default: return "the connection failed (URL error \(code.rawValue))"
        }
    }
}

/// Answers every redirect with "do not follow", so the 3xx itself reaches the completion.
private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
