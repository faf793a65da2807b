import Foundation
import KiwiModels

/// What a person's app asks for a device: its token, and the app and push service its notifications go through.
struct DeviceRegistration: Sendable, Hashable {
    var token: DeviceToken
    var bundleID: String
    var environment: PushEnvironment
}

/// The devices that hear when a person's scans end (`/v1/devices`), each kept with the session that registered it, so
/// that signing out silences that phone, and only while that session lasts. A token is one app on one phone: registered by another person (the phone
/// changed hands, or accounts), it moves to them. Real: ``PostgresDeviceStore`` (the `devices` table); fake:
/// `FakeDeviceStore`.
protocol DeviceStore: Sendable {
    /// Registers (or registers again) `registration` for `userID` under `session`, then keeps only the person's
    /// `limit` most recently registered devices, however many register at once.
    func register(_ registration: DeviceRegistration, for userID: UUID, session: DeviceSession, limit: Int) async throws -> Device
    /// Removes `token` if it is `userID`'s; whether it was.
    func remove(_ token: DeviceToken, of userID: UUID) async throws -> Bool
    /// Removes the devices the session of `sessionTokenHash` registered, when it signs out.
    func removeAll(ofSession sessionTokenHash: String) async throws
    /// Removes every device of `userID`, when their account goes.
    func removeAll(of userID: UUID) async throws
    /// The person's devices whose session has not expired at `now`, most recently registered first.
    func devices(of userID: UUID, at now: Date) async throws -> [Device]
    /// Removes the devices whose session expired before `now`: a session that ends without signing out (it expired,
    /// or the account went while a registration was on its way) leaves no device behind for long. How many.
    func removeExpired(before now: Date) async throws -> Int
}

/// The session a device is registered under: its token's hex SHA-256, and when it expires.
struct DeviceSession: Sendable, Hashable {
    var tokenHash: String
    var expiresAt: Date
}
