import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KiwiConcurrency
import KiwiDevelopment
import KiwiInternalAPI
import KiwiModels
import KiwiScans
import KiwiTestSupport
import Logging
import NIOCore
import Synchronization
import Testing

@testable import KiwiGateway

/// The gateway's router on fakes of every port (`Fakes/`), driven in-process by Hummingbird's test client.
final class FakeGateway: Sendable {
    let sessions = FakeSessionIntrospector()
    let accounts = FakeAccountActions()
    let ledger = FakeScanLedger()
    let recipes = FakeSavedRecipeStore()
    let profiles = FakeProfileStore()
    let pantry = FakePantryStore()
    let shoppingList = FakeShoppingListStore()
    let devices = FakeDeviceStore()
    let plans: FakeMealPlanStore
    let households: FakeHouseholdStore
    let listNews: ShoppingListNews
    let listStreamLifetime: Duration
    let hub = ScanEventHub()
    let workers: FakeScanJobQueue
    let announcer: FakeScanAnnouncer
    let scanTimeout: Duration
    let sharePageLimit: RateLimit
    let householdCodeLimit: RateLimit
    let exportLimit: RateLimit
    /// Trusts a checked session for an hour: a test stalled on a busy machine must not see it expire.
    let cache = SessionCache(timeToLive: .seconds(3600))
    let policy: QuotaPolicy
    let scanStartSlots: Int
    private let madeOn = UTCDay()
    private let madeAt = ContinuousClock.now
    private let revocationsReceived = Atomic(true)
    private let readiness: [String: @Sendable () async -> Bool]
    private let optionalReadiness: [String: @Sendable () async -> Bool]

    /// Noon UTC of a fixed day, where the gateway's clock of food dates (``GatewayDependencies/now``) starts, running
    /// on from when the gateway was made: a test sees one day however long it runs, and whenever.
    static let noon = Date(timeIntervalSince1970: 1_781_524_800)  // 2026-06-15T12:00:00Z
    /// The UTC day of the gateway's clock of food dates.
    static let today = CalendarDay(utc: noon)

    /// - Parameter workers: what becomes of every scan job: by default an empty answer at once.
    init(
        workers: FakeScanJobQueue.Fate = .answer(.ok(ScanResponse(ingredients: [], recipes: [])), modelTime: nil),
        scanTimeout: Duration = .seconds(10),
        sharePageLimit: RateLimit = RateLimit(burst: 60, perSecond: 1),
        householdCodeLimit: RateLimit = RateLimit(burst: 10, perSecond: 1.0 / 60),
        exportLimit: RateLimit = RateLimit(burst: 3, perSecond: 1.0 / 1200),
        policy: QuotaPolicy = QuotaPolicy(limit: 4),
        scanStartSlots: Int = 64,
        listStreamLifetime: Duration = .seconds(300),
        readiness: [String: @Sendable () async -> Bool] = [:],
        optionalReadiness: [String: @Sendable () async -> Bool] = [:]
    ) {
        self.households = FakeHouseholdStore(pantry: pantry, shoppingList: shoppingList, recipes: recipes)
        let ledger = ledger
        plans = FakeMealPlanStore(scanIsOpen: { ledger.isOpen($0) })
        let listAnnouncer = FakeShoppingListAnnouncer()
        listNews = ShoppingListNews(announcer: listAnnouncer)
        listAnnouncer.deliver(to: listNews)
        self.listStreamLifetime = listStreamLifetime
        self.workers = FakeScanJobQueue(workers, ledger: ledger, hub: hub)
        self.announcer = FakeScanAnnouncer(hub: hub)
        self.scanTimeout = scanTimeout
        self.sharePageLimit = sharePageLimit
        self.householdCodeLimit = householdCodeLimit
        self.exportLimit = exportLimit
        self.policy = policy
        self.scanStartSlots = scanStartSlots
        self.readiness = readiness
        self.optionalReadiness = optionalReadiness
    }

    /// Whether the revocation broadcasts are coming in (the gateway caches sessions only while they are).
    func revocations(received: Bool) {
        revocationsReceived.store(received, ordering: .relaxed)
    }

    var dependencies: GatewayDependencies {
        GatewayDependencies(
            sessions: sessions,
            accounts: accounts,
            jobQueue: workers,
            announcer: announcer,
            ledger: ledger,
            recipes: recipes,
            profiles: profiles,
            pantry: pantry,
            shoppingList: shoppingList,
            households: households,
            plans: plans,
            devices: devices,
            listNews: listNews,
            listStreamLifetime: listStreamLifetime,
            sharePageLimit: sharePageLimit,
            householdCodeLimit: householdCodeLimit,
            exportLimit: exportLimit,
            scanEventHub: hub,
            policy: policy,
            scanTimeout: scanTimeout,
            sessionCache: cache,
            sessionCachingAllowed: { [self] in revocationsReceived.load(ordering: .relaxed) },
            readinessChecks: readiness,
            optionalReadinessChecks: optionalReadiness,
            scanStartSlots: scanStartSlots,
            now: { [madeAt] in Self.noon.addingTimeInterval((ContinuousClock.now - madeAt).seconds) }
        )
    }

    /// Runs `body` against the router, in-process without a socket (`.router`) unless `transport` says otherwise.
    func test(_ transport: TestingSetup = .router, _ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        var logger = Logger(label: "test.gateway.router")
        logger.logLevel = .critical
        let app = Application(router: buildRouter(dependencies: dependencies), logger: logger)
        try await app.test(transport, body)
    }

    /// A signed-in user's bearer token, with the quota key their scans count under.
    func signIn(expiresAt: Date = Date().addingTimeInterval(3600)) -> (token: String, session: SessionIntrospection, quotaKey: Data) {
        let token = UUID().uuidString
        let session = sessions.signIn(token, expiresAt: expiresAt)
        return (token, session, Data(hexEncoded: session.quotaKey)!)
    }

    /// Sets the scans the `quotaKey` has used today (as charges outside the ledger).
    func setUsedToday(_ count: Int, by quotaKey: Data) {
        ledger.setCarried(count, by: quotaKey, on: policy.day(of: Date()))
    }

    /// Scans the `quotaKey` has used since this gateway was made: on that UTC day and on today, so that a test that
    /// crosses midnight UTC still counts every charge.
    func used(by quotaKey: Data) async throws -> Int {
        var used = 0
        for day in Set([madeOn, UTCDay()]) { used += try await ledger.usage(of: quotaKey, on: day.day).scans }
        return used
    }
}

extension TestClientProtocol {
    /// A request with `Authorization: Bearer <token>`.
    func execute(
        _ method: HTTPRequest.Method,
        _ uri: String,
        token: String?,
        headers: HTTPFields = [:],
        body: ByteBuffer? = nil
    ) async throws
        -> TestResponse
    {
        var headers = headers
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await execute(uri: uri, method: method, headers: headers, body: body)
    }

    /// `POST /v1/scan` (or `path`) with `photo` as the multipart field `image`.
    func scan(_ photo: [UInt8], token: String, headers: HTTPFields = [:], path: String = "/v1/scan") async throws -> TestResponse {
        let multipart = MultipartUpload.make(photo)
        return try await upload(multipart.body, contentType: multipart.contentType, token: token, headers: headers, path: path)
    }

    /// `POST /v1/scan` (or `path`) with any body.
    func upload(
        _ body: [UInt8],
        contentType: String,
        token: String,
        headers: HTTPFields = [:],
        path: String = "/v1/scan"
    ) async throws
        -> TestResponse
    {
        var headers = headers
        headers[.contentType] = contentType
        return try await execute(.post, path, token: token, headers: headers, body: ByteBuffer(bytes: body))
    }
}

extension TestResponse {
    /// The body as a JSON object.
    func json() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any])
    }

    /// The API error code of an error answer.
    var errorCode: String? { (try? json())?["error"] as? String }
}

/// A small photo that passes the upload rules.
let testPhoto: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x42, count: 60) + [0xFF, 0xD9]
