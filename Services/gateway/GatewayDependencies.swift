import Foundation
import KiwiInternalAPI
import KiwiScanJobs
import KiwiScans
import NIOCore

/// Who a bearer token belongs to. Real: ``AuthServiceClient`` (the auth service's introspection endpoint);
/// fake: `FakeSessionIntrospector` in `Tests/KiwiGatewayTests/Fakes`.
protocol SessionIntrospector: Sendable {
    /// The session of `token`, or nil when it is unknown, expired or revoked.
    func introspect(_ token: String, requestID: String) async throws(AuthServiceUnavailable) -> SessionIntrospection?
}

/// The account changes the auth service makes, since it owns users and sessions. Real: ``AuthServiceClient``;
/// fake: `FakeAccountActions`.
protocol AccountActions: Sendable {
    /// Forwards a client's `POST /v1/auth/apple` and returns the answer as it is.
    func signInWithApple(body: ByteBuffer, requestID: String) async throws(AuthServiceUnavailable) -> ForwardedResponse
    /// Ends the session of `token`.
    func revoke(_ token: String, requestID: String) async throws(AuthServiceUnavailable)
    /// Deletes a user and everything of theirs.
    func deleteUser(_ id: UUID, requestID: String) async throws(AuthServiceUnavailable)
}

/// The scan workers, as the gateway reaches them. Real: ``ScanDispatcher`` (jobs on RabbitMQ's job queue, news on
/// the scan event exchange); fake: `FakeScanBackend`.
protocol ScanBackend: Sendable {
    /// Hands a scan's job to the workers: returns once the broker has taken it, or throws. The job, photo and all, is
    /// handed over, not kept while the worker and the model take their time; the worker records the outcome on the
    /// scan's record. Throws ``ScanNotSent`` when the job certainly never left this gateway.
    func submit(_ job: consuming ScanJob) async throws
    /// Tells every gateway replica (this one too) that a scan changed state. Best effort.
    func announce(_ event: ScanEvent) async
}

/// A scan job that certainly never reached the broker (no connection, or publishing blocked by a resource alarm), as
/// opposed to one whose fate is unknown (the connection dropped before the broker confirmed it).
struct ScanNotSent: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
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
    var scans: any ScanBackend
    /// Every scan and its state, and so each person's daily usage (``ScanLedger``): real ``PostgresScanLedger``, fake
    /// `FakeScanLedger`.
    var ledger: any ScanLedger
    /// The recipes users keep (``RecipeBox``): real ``PostgresRecipeBox``, fake `FakeRecipeBox`.
    var recipes: any RecipeBox
    /// Each user's kitchen profile (``ProfileStore``): real ``PostgresProfileStore``, fake `FakeProfileStore`.
    var profiles: any ProfileStore
    /// The base of the share links (`PUBLIC_BASE_URL`).
    var publicBaseURL = URL(string: "http://localhost:8080")!
    /// How many share pages one client address may open in a burst, and then per second.
    var sharePageLimit = RateLimit(burst: 60, perSecond: 1)
    /// Wakes the requests and event streams waiting for a scan when news of it arrives.
    var scanEvents: ScanEventHub
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
}
