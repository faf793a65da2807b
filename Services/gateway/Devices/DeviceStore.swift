import Foundation
import KiwiModels

/// What a person's app asks for a device: its token, and the app and push service its notifications go through.
struct DeviceRegistration: Sendable, Hashable {
    var token: DeviceToken
    var bundleID: String
    var environment: PushEnvironment
}

/// The devices that hear when a person's scans end (`/v1/devices`), each kept with the session that registered it, so
/// that signing out silences that phone. A token is one app on one phone: registered by another person (the phone
/// changed hands, or accounts), it moves to them. Real: ``PostgresDeviceStore`` (the `devices` table); fake:
/// `FakeDeviceStore`.
protocol DeviceStore: Sendable {
    /// Registers (or registers again) `registration` for `userID` under the session of `sessionTokenHash` (hex
    /// SHA-256), then keeps only the person's `limit` most recently registered devices.
    func register(_ registration: DeviceRegistration, for userID: UUID, sessionTokenHash: String, limit: Int) async throws -> Device
    /// Removes `token` if it is `userID`'s; whether it was.
    func remove(_ token: DeviceToken, of userID: UUID) async throws -> Bool
    /// Removes the devices the session of `sessionTokenHash` registered, when it signs out.
    func removeAll(ofSession sessionTokenHash: String) async throws
    /// Removes every device of `userID`, when their account goes.
    func removeAll(of userID: UUID) async throws
    /// The person's devices, most recently registered first.
    func devices(of userID: UUID) async throws -> [Device]
}
