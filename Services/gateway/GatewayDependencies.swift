import Foundation
import KiwiInternalAPI
import KiwiModels
import KiwiScanMessages
import NIOCore

/// Who a bearer token belongs to. Real: ``AuthServiceClient`` (the auth service's introspection endpoint);
/// fake: `FakeSessionIntrospector` in `Tests/KiwiGatewayTests/Fakes`.
protocol SessionIntrospector: Sendable {
    /// The session of `token`, or nil when it is unknown, expired or revoked.
    func introspect(_ token: String, requestID: String) async throws(AuthServiceUnavailable) -> SessionIntrospection?
}

/// The account changes the auth service makes, and what it keeps of an account, since it owns users and sessions.
/// Real: ``AuthServiceClient``; fake: `FakeAccountActions`.
protocol AccountActions: Sendable {
    /// Forwards a client's `POST /v1/auth/apple` and returns the answer as it is.
    func signInWithApple(body: ByteBuffer, requestID: String) async throws(AuthServiceUnavailable) -> ForwardedResponse
    /// Ends the session of `token`.
    func revoke(_ token: String, requestID: String) async throws(AuthServiceUnavailable)
    /// Deletes a user and everything of theirs.
    func deleteUser(_ id: UUID, requestID: String) async throws(AuthServiceUnavailable)
    /// What the auth service keeps of a user, for their export; nil when there is no such user.
    func account(_ id: UUID, requestID: String) async throws(AuthServiceUnavailable) -> UserAccount?
}

/// An answer of the auth service passed through to the client (its status and body).
struct ForwardedResponse: Sendable {
    var status: Int
    var body: ByteBuffer
}

/// Everything the gateway's routes use from the world outside the process, as ports: ``buildApplication`` wires
/// the real ones, the router tests fakes.
struct GatewayDependencies: Sendable {
    var sessions: any SessionIntrospector
    var accounts: any AccountActions
    /// Where scan jobs wait for the workers (``ScanJobQueue``): real ``AMQPScanJobQueue``, fake `FakeScanJobQueue`.
    var jobQueue: any ScanJobQueue
    /// News of scans for every replica (``ScanAnnouncer``): real ``ScanEventAnnouncer``, fake `FakeScanAnnouncer`.
    var announcer: any ScanAnnouncer
    /// Every scan and its state, and so each person's daily usage (``ScanLedger``): real ``PostgresScanLedger``, fake
    /// `FakeScanLedger`.
    var ledger: any ScanLedger
    /// The recipes users keep (``SavedRecipeStore``): real ``PostgresSavedRecipeStore``, fake `FakeSavedRecipeStore`.
    var recipes: any SavedRecipeStore
    /// Each user's kitchen profile (``ProfileStore``): real ``PostgresProfileStore``, fake `FakeProfileStore`.
    var profiles: any ProfileStore
    /// What each user has at home (``PantryStore``): real ``PostgresPantryStore``, fake `FakePantryStore`.
    var pantry: any PantryStore
    /// What each user means to buy (``ShoppingListStore``): real ``PostgresShoppingListStore``, fake
    /// `FakeShoppingListStore`.
    var shoppingList: any ShoppingListStore
    /// Who shares a kitchen with whom (``HouseholdStore``): real ``PostgresHouseholdStore``, fake `FakeHouseholdStore`.
    var households: any HouseholdStore
    /// The kitchens' meal plans (``MealPlanStore``): real ``PostgresMealPlanStore``, fake `FakeMealPlanStore`.
    var plans: any MealPlanStore
    /// The phones that hear when a person's scans end (``DeviceStore``): real ``PostgresDeviceStore``, fake
    /// `FakeDeviceStore`.
    var devices: any DeviceStore
    /// The shopping list's live side (``ShoppingListNews``): real on RabbitMQ's kitchen news, fake in-process.
    var listNews: ShoppingListNews
    /// How long one shopping list event stream lasts before the client reconnects.
    var listStreamLifetime = Duration.seconds(300)
    /// The base of the share links (`PUBLIC_BASE_URL`).
    var publicBaseURL = URL(string: "http://localhost:8080")!
    /// How many share pages, and how many plan calendars, one client address may open in a burst, and then per second.
    var sharePageLimit = RateLimit(burst: 60, perSecond: 1)
    /// How many household invitations one person may make, and how many codes try, in a burst and then per second.
    var householdCodeLimit = RateLimit(burst: 10, perSecond: 1.0 / 60)
    /// How many account exports one person may ask for in a burst, and then per second: three, then one every 20
    /// minutes. Each replica counts its own.
    var exportLimit = RateLimit(burst: 3, perSecond: 1.0 / 1200)
    /// Wakes the requests and event streams waiting for a scan when news of it arrives.
    var scanEventHub: ScanEventHub
    var policy: QuotaPolicy
    /// How long a scan may take (`SCAN_TIMEOUT_SECONDS`).
    var scanTimeout: Duration
    var sessionCache: SessionCache
    /// Whether revocations are being received; without them a cached session could outlive its sign-out.
    var sessionCachingAllowed: @Sendable () -> Bool
    /// `GET /health/ready`'s checks: those that make the gateway unready, and those that only make it degraded.
    var readinessChecks: [String: @Sendable () async -> Bool]
    var optionalReadinessChecks: [String: @Sendable () async -> Bool] = [:]
    /// How many scans may be starting at once (``ScanStartLimiter``).
    var scanStartSlots = 64
    /// The time of the dates a person sees on their food: the day an item is added, its use-soon estimate, the bounds
    /// of a best-before date and the pantry's ranking of recipes. The router tests fix its day, so that a run across
    /// midnight UTC sees one.
    var now: @Sendable () -> Date = { Date() }
}
