import Foundation
import KiwiConcurrency

/// Hands out session tokens of load-test users, each for as many scans as the gateway lets it make today. Successive
/// scans take turns over `people` users, as many people scan at once in real life; a user whose scans are used up is
/// replaced by a new one (signed in with a development identity token, through the gateway, seated at a household table
/// of their own when the test has one, ``HouseholdSeating``, and with phones registered when it asks for them,
/// ``PhoneRegistration``). Concurrent callers of one turn share its sign-in;
/// a sign-in refused with `Retry-After` is tried again only after it, backing off as a lane refused a scan does
/// (``LoadTest/backoff(after:refusals:)``), as the app would.
actor UserPool {
    private typealias User = (token: String, scansLeft: Int)

    private let api: GatewayAPI
    private let seating: HouseholdSeating?
    private let phones: PhoneRegistration?
    private var turns: [User?]
    private var signingIn: [Task<User, any Error>?]
    /// When each turn's next sign-in may start, and how many of its sign-ins in a row were refused with `Retry-After`.
    private var refusals: [(notBefore: ContinuousClock.Instant, times: Int)?]
    /// When the load ends: no sign-in waits past it.
    private var loadEnds: ContinuousClock.Instant?
    private var nextTurn = 0
    /// Users signed in so far.
    private(set) var users = 0

    init(api: GatewayAPI, seating: HouseholdSeating? = nil, phones: PhoneRegistration? = nil, people: Int) {
        precondition(people > 0, "a user pool needs at least one person")
        self.api = api
        self.seating = seating
        self.phones = phones
        self.turns = Array(repeating: nil, count: people)
        self.signingIn = Array(repeating: nil, count: people)
        self.refusals = Array(repeating: nil, count: people)
    }

    /// Signs every turn's first user in before the load starts, as people have signed in before they scan: the first
    /// alone, so that a gateway or auth service that refuses development sign-ins stops the load test at once, then
    /// the others, `parallel` at a time.
    func prepare(parallel: Int = 32) async throws {
        try await signIn(turn: 0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for turn in 1..<turns.count {
                if turn > parallel { try await group.next() }
                group.addTask { try await self.signIn(turn: turn) }
            }
            try await group.waitForAll()
        }
    }

    /// Makes sign-ins backing off wait no longer than `instant`, when the load ends.
    func end(at instant: ContinuousClock.Instant) {
        loadEnds = instant
    }

    /// A session token with a scan left today: the next turn's user.
    func token() async throws -> String {
        let turn = nextTurn
        nextTurn = (nextTurn + 1) % turns.count
        while true {
            if let user = turns[turn], user.scansLeft > 0 {
                turns[turn] = (user.token, user.scansLeft - 1)
                return user.token
            }
            try await signIn(turn: turn)
        }
    }

    /// Gives a turn a new user, or waits for the sign-in already under way for it.
    private func signIn(turn: Int) async throws {
        let pending =
            signingIn[turn]
            ?? Task { [api, seating, phones, refused = refusals[turn], loadEnds] in
                if let refused { try await sleep(until: min(refused.notBefore, loadEnds ?? refused.notBefore)) }
                let token = try await api.signIn()
                try await seating?.seat(token, api: api)
                try await phones?.register(token, api: api)
                return (token, try await api.scansLeft(token: token))
            }
        signingIn[turn] = pending
        do {
            let user = try await pending.value
            if signingIn[turn] == pending {
                (turns[turn], signingIn[turn], refusals[turn]) = (user, nil, nil)
                users += 1
            }
        } catch {
            if signingIn[turn] == pending {
                signingIn[turn] = nil
                let times = (refusals[turn]?.times ?? 0) + 1
                refusals[turn] = (error as? LoadTestError)?.retryAfter.map { (.now + LoadTest.backoff(after: $0, refusals: times), times) }
            }
            throw error
        }
    }
}

/// A failure that ends the load test, with a sentence for the operator.
struct LoadTestError: Error, CustomStringConvertible {
    let description: String
    /// How long the server asked to wait before trying again, if it did.
    var retryAfter: Duration?

    init(_ description: String, retryAfter: Duration? = nil) {
        self.description = description
        self.retryAfter = retryAfter
    }
}
