import Foundation
import KiwiModels
import Synchronization

@testable import KiwiGateway

/// Devices in memory, kept the way ``PostgresDeviceStore`` keeps them.
final class FakeDeviceStore: DeviceStore {
    private struct Kept {
        var registration: DeviceRegistration
        var userID: UUID
        var session: DeviceSession
        var registeredAt: Date
    }

    private let kept = Mutex<[DeviceToken: Kept]>([:])

    func register(_ registration: DeviceRegistration, for userID: UUID, session: DeviceSession, limit: Int) async throws -> Device {
        kept.withLock { kept in
            let now = Date()
            kept[registration.token] = Kept(registration: registration, userID: userID, session: session, registeredAt: now)
            let forgotten = Self.newestFirst(kept.filter { $0.value.userID == userID }).dropFirst(limit)
            for (token, _) in forgotten { kept[token] = nil }
            return Self.device(registration.token, kept[registration.token]!)
        }
    }

    func remove(_ token: DeviceToken, of userID: UUID) async throws -> Bool {
        kept.withLock { kept in
            guard kept[token]?.userID == userID else { return false }
            kept[token] = nil
            return true
        }
    }

    func removeAll(ofSession sessionTokenHash: String) async throws {
        kept.withLock { kept in kept = kept.filter { $0.value.session.tokenHash != sessionTokenHash } }
    }

    func removeAll(of userID: UUID) async throws {
        kept.withLock { kept in kept = kept.filter { $0.value.userID != userID } }
    }

    func devices(of userID: UUID, at now: Date) async throws -> [Device] {
        kept.withLock { kept in
            Self.newestFirst(kept.filter { $0.value.userID == userID && $0.value.session.expiresAt > now }).map { Self.device($0.key, $0.value) }
        }
    }

    func removeExpired(before now: Date) async throws -> Int {
        kept.withLock { kept in
            let before = kept.count
            kept = kept.filter { $0.value.session.expiresAt > now }
            return before - kept.count
        }
    }

    private static func newestFirst(_ devices: [DeviceToken: Kept]) -> [(key: DeviceToken, value: Kept)] {
        devices.sorted { ($0.value.registeredAt, $1.key.hex) > ($1.value.registeredAt, $0.key.hex) }
    }

    private static func device(_ token: DeviceToken, _ kept: Kept) -> Device {
        Device(
            tokenEnding: token.ending,
            bundleId: kept.registration.bundleID,
            environment: kept.registration.environment,
            registeredAt: kept.registeredAt
        )
    }
}
