import Dispatch
import Foundation
import FoundationNetworking
import Synchronization

/// POSTs a result to a tenant's result server (FoundationNetworking, over the toolchain's
/// libcurl) and says whether the server confirmed it with a 2xx. One attempt: the outbox's
/// deliverer retries, and every attempt carries `Idempotency-Key: <validationId>`, by which the
/// result server drops the copies at-least-once delivery may bring.
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
        let session = URLSession(configuration: configuration)
        let task = session.dataTask(with: request) { _, response, error in
            let verdict: String?
            if let error {
                verdict = "the result server could not be reached: \(error.localizedDescription)"
            } else if let status = (response as? HTTPURLResponse)?.statusCode, (200..<300).contains(status) {
                verdict = nil
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
}
