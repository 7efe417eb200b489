import Dispatch
import Foundation
import JSON
import Synchronization

/// The outbox's background deliverer: POSTs every entry until a result server confirms it (2xx)
/// or its retry time is over, backing off exponentially (from `initialBackoff`, doubling, at most
/// `maximumBackoff`, plus up to a quarter at random so that entries stored together spread out).
/// A few threads POST at once, so that one slow result server does not hold every other entry.
final class ResultDelivery: Sendable {
    private struct Scheduled: Sendable {
        let name: String
        let due: ContinuousClock.Instant
        let attempts: Int
    }

    private struct State: Sendable {
        var queue: [Scheduled] = []
        var stopping = false
    }

    static let maximumBackoff = Duration.seconds(300)
    private static let workers = 4

    private let outbox: Outbox
    private let poster: ResultPoster
    private let retryFor: Duration
    private let initialBackoff: Duration
    private let log: @Sendable (JSONValue) -> Void
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)

    /// Schedules every entry already in the outbox (a restart resumes them); `start` starts the
    /// threads.
    init(
        outbox: Outbox, poster: ResultPoster, retryFor: Duration, initialBackoff: Duration,
        log: @escaping @Sendable (JSONValue) -> Void
    ) {
        self.outbox = outbox
        self.poster = poster
        self.retryFor = retryFor
        self.initialBackoff = initialBackoff
        self.log = log
        let now = ContinuousClock.now
        let resumed = outbox.names.sorted()
        state.withLock { $0.queue = resumed.map { Scheduled(name: $0, due: now, attempts: 0) } }
        if !resumed.isEmpty { log(["event": "outboxResumed", "pending": .integer(resumed.count)]) }
    }

    /// Starts the threads, once the server is up (a server that cannot listen starts none).
    func start() {
        for index in 0..<Self.workers {
            let thread = Thread { [self] in work() }
            thread.name = "emrtd.delivery.\(index)"
            thread.start()
        }
    }

    /// Retries `name` after a failed first attempt (the session's own).
    func retry(_ name: String) {
        let due = ContinuousClock.now.advanced(by: backoff(after: 1))
        state.withLock { $0.queue.append(Scheduled(name: name, due: due, attempts: 1)) }
        wake.signal()
    }

    /// Stops taking entries; an attempt under way finishes (what stays in the outbox is resumed at
    /// the next start).
    func stop() {
        state.withLock { $0.stopping = true }
        for _ in 0..<Self.workers { wake.signal() }
    }

    private func backoff(after attempts: Int) -> Duration {
        let doubled = initialBackoff * (1 << min(max(attempts - 1, 0), 20))
        let capped = min(doubled, max(Self.maximumBackoff, initialBackoff))
        return capped + capped * Double.random(in: 0..<0.25)
    }

    private func work() {
        while true {
            let next: Scheduled? = state.withLock { state in
                guard !state.stopping else { return nil }
                let now = ContinuousClock.now
                guard let index = state.queue.indices.min(by: { state.queue[$0].due < state.queue[$1].due }),
                    state.queue[index].due <= now
                else { return nil }
                return state.queue.remove(at: index)
            }
            guard let next else {
                let (stopping, earliest) = state.withLock { ($0.stopping, $0.queue.map(\.due).min()) }
                if stopping { return }
                let wait = min(
                    .seconds(1), max(.zero, ContinuousClock.now.duration(to: earliest ?? .now + .seconds(1))))
                _ = wake.wait(timeout: .now() + .nanoseconds(Int(wait / .nanoseconds(1))))
                continue
            }
            attempt(next)
        }
    }

    private func attempt(_ scheduled: Scheduled) {
        let entry: OutboxEntry
        do throws(ValidationError) {
            entry = try outbox.load(scheduled.name)
        } catch {
            log(["event": "undeliverable", "entry": .string(scheduled.name), "reason": .string(error.reason)])
            outbox.setAside(scheduled.name)
            return
        }
        let attempts = scheduled.attempts + 1
        let identity: [JSONMember] = [
            JSONMember("validationId", .string(entry.validationId)), JSONMember("clientId", .string(entry.clientId)),
            JSONMember("attempts", .integer(attempts)),
        ]
        guard let problem = poster.post(entry) else {
            outbox.remove(scheduled.name)
            log(.object([JSONMember("event", "delivered")] + identity))
            return
        }
        let age = Int(Date().timeIntervalSince1970) - entry.storedAt
        guard Duration.seconds(age) < retryFor else {
            outbox.setAside(scheduled.name)
            log(
                .object(
                    [JSONMember("event", "undeliverable")] + identity + [
                        JSONMember("reason", .string("no result server confirmed it in \(retryFor): \(problem)"))
                    ]))
            return
        }
        let delay = backoff(after: attempts)
        state.withLock {
            $0.queue.append(
                Scheduled(name: scheduled.name, due: ContinuousClock.now.advanced(by: delay), attempts: attempts))
        }
        log(
            .object(
                [JSONMember("event", "deliveryFailed")] + identity + [
                    JSONMember("reason", .string(problem)),
                    JSONMember("retryMs", .integer(Int(delay / .milliseconds(1)))),
                ]))
    }
}
